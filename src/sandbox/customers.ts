import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { recordId } from './ids';
import type { CustomerRecord, Notes } from './records';
import type { Store } from './store';
import { collection, pageWindow, publicView } from './views';

export interface NewCustomer {
  name?: string | null;
  email?: string | null;
  contact?: string | null;
  gstin?: string | null;
  notes?: Notes;
}

/** The one way a customer is made: the service's create, the sandbox's own, seeds and subscribers. */
export function newCustomer(store: Store, now: number, input: NewCustomer): CustomerRecord {
  return store.insert<CustomerRecord>({
    id: recordId('customer'),
    entity: 'customer',
    name: input.name ?? null,
    email: input.email ?? null,
    contact: input.contact ?? null,
    gstin: input.gstin ?? null,
    notes: input.notes ?? {},
    created_at: now,
  });
}

/** A customer with this e-mail and phone, as the real service matches one (both, each possibly absent). */
function existing(store: Store, email: string | null, contact: string | null): CustomerRecord | undefined {
  if (email === null && contact === null) return undefined;
  const same = "json_extract(data, '$.email') IS ? AND json_extract(data, '$.contact') IS ?";
  return store.list('customer', { count: 1, skip: 0, where: same, args: [email, contact] })[0];
}

/**
 * As the real service: a second customer with the same e-mail and phone is refused, unless
 * `fail_existing` is 0, when the existing one is answered instead (unchanged).
 */
export function createCustomer({ store, now, body }: RouteContext<'createCustomer'>) {
  return publicView(
    store.tx(() => {
      const found = existing(store, body.email ?? null, body.contact ?? null);
      if (found && body.fail_existing === 0) return found;
      if (found) throw new SandboxError('Customer already exists for the merchant', 400);
      return newCustomer(store, now, body);
    }),
  );
}

function stored(store: Store, id: string): CustomerRecord {
  const found = store.get('customer', id);
  if (!found) throw notFound();
  return found;
}

export const getCustomer = ({ store, params }: RouteContext<'getCustomer'>) => publicView(stored(store, params.id!));

export const listCustomers = ({ store, query }: RouteContext<'listCustomers'>) =>
  collection(store.list('customer', pageWindow(query)));

/** Name, e-mail and phone; another customer's e-mail and phone together are refused as on create. */
export function editCustomer({ store, params, body }: RouteContext<'editCustomer'>) {
  return publicView(
    store.tx(() => {
      const customer = stored(store, params.id!);
      const email = body.email ?? customer.email;
      const contact = body.contact ?? customer.contact;
      const other = existing(store, email, contact);
      if (other && other.id !== customer.id) throw new SandboxError('Customer already exists for the merchant', 400);
      Object.assign(customer, { name: body.name ?? customer.name, email, contact });
      return store.update(customer);
    }),
  );
}

export const customerRoutes = {
  createCustomer,
  getCustomer,
  listCustomers,
  editCustomer,
};
