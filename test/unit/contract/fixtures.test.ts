import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Customer,
  FundAccount,
  Order,
  Payment,
  Payout,
  Plan,
  Refund,
  Settlement,
  Subscription,
  Transfer,
  collectionOf,
} from '../../../src/contract';
import type * as z from 'zod/mini';

const dir = new URL('../../fixtures/real/', import.meta.url);
const schemas: Record<string, z.ZodMiniType> = {
  order: Order,
  payment: Payment,
  refund: Refund,
  plan: Plan,
  subscription: Subscription,
  transfer: Transfer,
  fund_account: FundAccount,
  payout: Payout,
  customer: Customer,
  settlement: Settlement,
};

/** Every record of a resource payctl reads: the file itself, or the items of a collection. */
function records(): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, unknown>;
    const items = data.entity === 'collection' ? (data.items as Array<Record<string, unknown>>) : [data];
    items.forEach((item, i) => {
      if (typeof item.entity === 'string' && item.entity in schemas) out.push([`${file}#${i}`, item]);
    });
  }
  return out;
}

describe('response schemas accept every real payload', () => {
  const all = records();
  it('covers every resource kind the fixtures hold', () => {
    const kinds = new Set(all.map(([, r]) => r.entity));
    for (const k of ['order', 'payment', 'refund', 'plan', 'subscription', 'transfer', 'fund_account', 'payout'])
      expect(kinds).toContain(k);
    expect(all.length).toBeGreaterThan(40);
  });

  it.each(all)('%s parses and keeps unknown fields', (_name, record) => {
    const parsed = schemas[record.entity as string]!.safeParse(record);
    expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues[0])).toBe(true);
    expect(parsed.data).toEqual(record);
  });

  it('rejects a record of another resource', () => {
    const refund = all.find(([, r]) => r.entity === 'refund')![1];
    expect(Payment.safeParse(refund).success).toBe(false);
    expect(Payment.safeParse({ error: { code: 'BAD_REQUEST_ERROR' } }).success).toBe(false);
    expect(Payment.safeParse('<html>502 Bad Gateway</html>').success).toBe(false);
  });

  it('accepts collections whose count disagrees with their items', () => {
    const data = JSON.parse(readFileSync(new URL('payment_collection_netbanking.json', dir), 'utf8'));
    expect(collectionOf(Payment).safeParse(data).success).toBe(true);
  });

  // Items of a page are checked by a compiled checker, a lone record key by key: both must agree.
  it.each(all)('%s, and spoiled copies of it, get the same verdict alone and as an item of a page', (_name, record) => {
    const one = schemas[record.entity as string]!;
    const page = collectionOf(one);
    const spoiled = [
      record,
      { ...record, id: 42 },
      { ...record, entity: 'something_else' },
      { ...record, created_at: 'yesterday' },
      { ...record, notes: 'a string' },
      { ...record, extra: { kept: true } },
      Object.fromEntries(Object.entries(record).filter(([k]) => k !== 'id')),
    ];
    for (const variant of spoiled) {
      const alone = one.safeParse(variant);
      const inPage = page.safeParse({ entity: 'collection', count: 1, items: [variant] });
      expect(inPage.success, JSON.stringify(variant).slice(0, 80)).toBe(alone.success);
      if (alone.success && inPage.success) expect((inPage.data as { items: unknown[] }).items[0]).toEqual(alone.data);
    }
  });
});
