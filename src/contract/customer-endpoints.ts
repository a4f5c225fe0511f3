import * as z from 'zod/mini';
import { LIMITS } from './limits';
import { flagInt, maxChars, notesInput, queryInt } from './common';
import { Customer, collectionOf } from './resources';

/** The real `/customers` endpoints: create (or find, with `fail_existing: 0`), fetch, list, edit. */

const name = maxChars(50).check(z.minLength(1));
const email = maxChars(64).check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: 'is not a valid e-mail address' }));
/** Clients of the real service send the phone as a number too. */
const contact = z.pipe(
  z.union([z.string(), z.int().check(z.minimum(0))]),
  z.pipe(
    z.transform(String),
    z.string().check(z.regex(/^\+?[0-9]{8,15}$/, { message: 'must be 8 to 15 digits, optionally after a +' })),
  ),
);
const gstin = z.nullable(
  z.string().check(z.regex(/^[0-9]{2}[A-Z0-9]{13}$/, { message: 'is not a valid GSTIN (15 characters)' })),
);

export const CustomerCreateBody = z.lazy(() =>
  z.object({
    name,
    email: z.optional(email),
    contact: z.optional(contact),
    gstin: z.optional(gstin),
    notes: z.optional(notesInput),
    /** 1 (the default): an existing customer with the same e-mail and phone is an error; 0: it is returned. */
    fail_existing: z.optional(flagInt),
  }),
);

export const CustomerEditBody = z.lazy(() =>
  z.object({ name: z.optional(name), email: z.optional(email), contact: z.optional(contact) }),
);

export const CustomerListQuery = z.lazy(() =>
  z.object({
    count: z.optional(queryInt(1, LIMITS.count)),
    skip: z.optional(queryInt(0)),
    from: z.optional(queryInt(0)),
    to: z.optional(queryInt(0)),
  }),
);

export const customerEndpoints = {
  createCustomer: { method: 'POST', path: '/customers', body: CustomerCreateBody, response: Customer },
  getCustomer: { method: 'GET', path: '/customers/:id', response: Customer },
  listCustomers: { method: 'GET', path: '/customers', query: CustomerListQuery, response: collectionOf(Customer) },
  editCustomer: { method: 'PUT', path: '/customers/:id', body: CustomerEditBody, response: Customer },
} as const;
