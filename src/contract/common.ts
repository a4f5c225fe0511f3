// zod/mini: the same validation core as `zod`, but schemas are plain data (no methods bound to every
// instance) and only the checks used are bundled: a third of the code to load and build on every API call.
import * as z from 'zod/mini';
import { LIMITS } from './limits';
import { INR } from './vocabulary';

const codePoints = (s: string) => [...s].length;

/**
 * Integers as the real service sends them: usually numbers, sometimes numeric strings
 * (`"amount": "500000"` in eligibility payloads). Kept as given; renderers coerce.
 */
export const looseInt = z.union([z.number(), z.string().check(z.regex(/^-?\d+$/))]);

/** `notes` in responses: `{}` normally, `[]` when empty on older records, sometimes absent or null. */
export const responseNotes = z.nullish(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]));

// Request inputs below are z.lazy: zod makes every instance of a schema when it is declared, and
// a command that sends no body (a get, a list) needs none of them.

/** A positive integer amount in the smallest currency unit; digit strings are accepted from foreign clients. */
export const amountInput = z.lazy(() =>
  z.pipe(
    z.union([z.number(), z.pipe(z.string().check(z.regex(/^\d+$/)), z.transform(Number))]),
    z.int().check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER)),
  ),
);

export const currencyInput = z.lazy(() =>
  z.string().check(z.regex(/^[A-Z]{3}$/, { message: 'must be a 3-letter ISO 4217 code' })),
);
export const inrOnly = z.lazy(() => z.literal(INR, { message: 'must be INR, the only currency this flow accepts' }));

/**
 * Request `notes`: at most 15 pairs of strings up to 256 characters each. Numbers and booleans
 * are turned into strings and `[]` means none, because clients written for the real service send both.
 */
export const notesInput = z.lazy(() =>
  z
    .pipe(
      z.union([
        z.pipe(
          z.array(z.never()).check(z.length(0)),
          z.transform(() => ({})),
        ),
        z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      ]),
      z.transform(
        (n) => Object.fromEntries(Object.entries(n).map(([k, v]) => [k, String(v)])) as Record<string, string>,
      ),
    )
    .check(
      z.superRefine((notes, ctx) => {
        const keys = Object.keys(notes);
        if (keys.length > LIMITS.notesPairs) {
          ctx.addIssue({ code: 'custom', message: `may not have more than ${LIMITS.notesPairs} items` });
        }
        for (const key of keys) {
          if (codePoints(key) > LIMITS.notesValueChars || codePoints(notes[key] ?? '') > LIMITS.notesValueChars) {
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `may not be greater than ${LIMITS.notesValueChars} characters`,
            });
          }
        }
      }),
    ),
);

export const maxChars = (n: number) =>
  z.string().check(z.refine((s) => codePoints(s) <= n, { message: `may not be greater than ${n} characters` }));

/** Whole numbers in query strings arrive as text; `""` and `"1.5"` are refused rather than coerced. */
export const queryInt = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.pipe(
    z.union([
      z.number(),
      z.pipe(z.string().check(z.regex(/^\d+$/, { message: 'must be an integer' })), z.transform(Number)),
    ]),
    z.int().check(z.minimum(min), z.maximum(max)),
  );

/** Booleans in query strings: `true`/`false`/`1`/`0` as the real service takes them. */
export const queryBool = z.lazy(() =>
  z.union([
    z.boolean(),
    z.pipe(
      z.enum(['true', 'false', '1', '0']),
      z.transform((v) => v === 'true' || v === '1'),
    ),
  ]),
);

/** `customer_notify`-style flags: real clients send `1`, `0`, `"1"`, `"0"` or booleans. */
export const flagInt = z.lazy(() =>
  z.union([
    z.literal(0),
    z.literal(1),
    z.pipe(z.enum(['0', '1']), z.transform(Number)),
    z.pipe(
      z.boolean(),
      z.transform((b) => (b ? 1 : 0)),
    ),
  ]),
);

export const resourceId = z.lazy(() =>
  z.string().check(z.regex(/^[A-Za-z0-9_]{1,60}$/, { message: 'is not a valid id' })),
);
