import { describe, expect, it } from 'vitest';
import { createCustomer, editCustomer, getCustomer, listCustomers } from '../../../../src/commands/customers/handlers';
import type { CreateCustomerOptions } from '../../../../src/commands/customers/handlers';
import { UsageError } from '../../../../src/contract/errors';
import { checkCommand } from '../../../../src/commands/check';
import { expectDryRun, expectUsageError, fakeContext } from '../fake-context';

const ID = 'cust_4xbQrmEoA5q1fP';
const customer = (o: Record<string, unknown> = {}) => ({
  id: ID,
  entity: 'customer',
  name: 'Asha Rao',
  email: 'asha@example.com',
  contact: '+919876543210',
  gstin: null,
  notes: {},
  created_at: 1_764_000_000,
  ...o,
});
const create = (o: Partial<CreateCustomerOptions> = {}): CreateCustomerOptions => ({
  name: 'Asha Rao',
  email: 'asha@example.com',
  contact: '+919876543210',
  notes: [],
  failExisting: false,
  ...o,
});

describe('customers create', () => {
  it.each([
    ['by default an existing customer is the answer', create(), { fail_existing: 0, name: 'Asha Rao' }],
    ['--fail-existing refuses one', create({ failExisting: true }), { fail_existing: 1 }],
    [
      '--gstin upper-cased, a note',
      create({ gstin: '29abcde1234f1z5', notes: ['tier=gold'] }),
      { gstin: '29ABCDE1234F1Z5', notes: { tier: 'gold' } },
    ],
  ])('%s: one POST /customers', async (_name, opts, body) => {
    const f = fakeContext({ routes: { 'POST /customers': { body: customer() } } });
    expect(await createCustomer(opts, f.ctx)).toEqual({ type: 'one', kind: 'customer', data: customer() });
    expect(f.sent).toEqual([
      expect.objectContaining({ method: 'POST', path: '/customers', body: expect.objectContaining(body) }),
    ]);
  });

  it.each([
    ['an empty name', create({ name: '  ' }), /name/],
    ['a name over 50 characters', create({ name: 'x'.repeat(51) }), /name/],
    ['an e-mail without @', create({ email: 'asha' }), /e-mail/],
    ['a phone with letters', create({ contact: '98765abc10' }), /contact/],
    ['a GSTIN of the wrong length', create({ gstin: '29ABC' }), /GSTIN/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(createCustomer, opts, message);
  });

  it('--dry-run returns the request and sends nothing', async () => {
    await expectDryRun(createCustomer, create(), { method: 'POST', path: '/customers' });
  });
});

describe('customers get, list, edit', () => {
  it('get reads one customer; a bad id is a usage error', async () => {
    const f = fakeContext({ routes: { 'GET /customers/:id': { body: customer() } } });
    expect(await getCustomer({ id: ID }, f.ctx)).toMatchObject({ type: 'one', kind: 'customer', data: { id: ID } });
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: `/customers/${ID}` })]);
    await expectUsageError(getCustomer, { id: 'pay_1' }, /customer id must look like cust_/);
  });

  it('list reads one page of customers', async () => {
    const f = fakeContext({
      routes: { 'GET /customers': { body: { entity: 'collection', count: 1, items: [customer()] } } },
    });
    const result = await listCustomers({ all: false, count: '5' }, f.ctx);
    expect(result).toMatchObject({ type: 'many', kind: 'customer' });
    const rows: unknown[] = [];
    for await (const row of (result as { items: AsyncIterable<unknown> }).items) rows.push(row);
    expect(rows).toEqual([customer()]);
    expect(f.sent[0]).toMatchObject({ method: 'GET', path: '/customers', query: { count: 5 } });
  });

  it('edit sends a PUT with only what changes; nothing to change is a usage error', async () => {
    const f = fakeContext({ routes: { 'PUT /customers/:id': { body: customer({ email: 'new@example.com' }) } } });
    const result = await editCustomer({ id: ID, email: 'new@example.com' }, f.ctx);
    expect(result).toMatchObject({ type: 'one', data: { email: 'new@example.com' } });
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method: 'PUT', path: `/customers/${ID}` });
    expect(JSON.parse(JSON.stringify(f.sent[0]!.body))).toEqual({ email: 'new@example.com' });
    const err = await editCustomer({ id: ID }, fakeContext().ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
  });
});

describe('a lost answer names the command that shows whether the write was applied', () => {
  it.each([
    ['POST', '/customers', 'payctl customers list --count 5'],
    ['PUT', `/customers/${ID}`, `payctl customers get ${ID}`],
    ['POST', '/subscriptions/sub_1/pause', 'payctl subscriptions get sub_1'],
    ['POST', '/subscriptions/sub_1/resume', 'payctl subscriptions get sub_1'],
  ])('%s %s', (method, path, want) => expect(checkCommand(method, path)).toBe(want));
});
