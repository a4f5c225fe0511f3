import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { endpoints } from '../../../src/contract';
import { accepts } from '../../../src/contract/accepts';

const dir = new URL('../../fixtures/real/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const payloads: unknown[] = files.map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
// The wallet has no real payloads (SOURCES.md): a statement page as the sandbox writes one.
const entry = (i: number) => ({
  id: `ctxn_${i}`,
  entity: 'customer_transaction',
  source: i % 2 ? 'cashback' : `pay_${i}`,
  status: 'completed',
  type: i % 2 ? 'transfer' : 'payment',
  amount: 263 + i,
  currency: 'INR',
  credit: i % 2 ? 263 + i : 0,
  debit: i % 2 ? 0 : 263 + i,
  balance: 490900 - i,
  description: 'Payment for order seed-19999',
  created_at: 1795462314 - i,
});
payloads.push({ entity: 'collection', count: 3, items: [entry(0), entry(1), entry(2)] });
payloads.push({ balance: 4909, monthly_usage: null, max_balance: '2000000' });

const schemas = Object.entries(endpoints as Record<string, { response: z.ZodMiniType }>).map(
  ([name, e]) => [name, e.response] as const,
);

// Each payload with the schemas that accept it: a change then lands where a verdict can turn.
const pairs = payloads.flatMap((p) =>
  schemas.filter(([, s]) => s.safeParse(p).success).map(([, s]) => [p, s] as const),
);

const same = (schema: z.ZodMiniType, value: unknown) =>
  expect(accepts(schema)(value), JSON.stringify(value)?.slice(0, 120)).toBe(schema.safeParse(value).success);

/** Every place in a JSON value a mutation can land: [] is the value itself. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
}

/** A copy of `value` with what is at `path` replaced (or, given undefined, removed). */
function mutate(value: unknown, path: Array<string | number>, next: unknown): unknown {
  if (!path.length) return next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (next === undefined) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else cur[last] = next;
  return copy;
}

describe('accepts: the verdict of every response schema, without zod building its copy', () => {
  it('covers every endpoint and payloads each one accepts', () => {
    expect(schemas.length).toBeGreaterThan(15);
    const accepted = schemas.filter(([, s]) => payloads.some((p) => s.safeParse(p).success));
    expect(accepted.length).toBeGreaterThan(10);
    expect(pairs.length).toBeGreaterThan(50);
  });

  it.each(schemas)('%s agrees with zod on every real payload and its records', (_name, schema) => {
    for (const payload of payloads) {
      same(schema, payload);
      const items = (payload as { items?: unknown[] }).items;
      for (const item of Array.isArray(items) ? items : []) same(schema, item);
    }
    for (const odd of [null, undefined, 0, '', 'x', [], {}, { entity: 'collection' }, { error: { code: 'X' } }])
      same(schema, odd);
  });

  it('agrees with zod on payloads changed anywhere: a field removed, or any JSON put in its place', () => {
    fc.assert(
      fc.property(
        fc.nat(pairs.length - 1),
        fc.nat(),
        fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('12', '-3', '1.5', ' 7', 'INR')), {
          nil: undefined,
        }),
        (i, at, next) => {
          const [payload, schema] = pairs[i]!;
          const where = paths(payload);
          same(schema, mutate(payload, where[at % where.length]!, next));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
