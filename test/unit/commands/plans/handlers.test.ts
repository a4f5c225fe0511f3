import { describe, expect, it } from 'vitest';
import { createPlan, getPlan, listPlans } from '../../../../src/commands/plans/handlers';
import type { CreatePlanOptions } from '../../../../src/commands/plans/handlers';
import { OutcomeUnknownError } from '../../../../src/contract/errors';
import { fakeContext, expectDryRun, expectUsageError } from '../fake-context';

const plan = { id: 'plan_new1', entity: 'plan', period: 'monthly', interval: 1, notes: [], created_at: 1 };
const planRecord = { ...plan, item: { name: 'Gold', amount: 49900, currency: 'INR' } };
const create = (o: Partial<CreatePlanOptions> = {}): CreatePlanOptions => ({
  period: 'monthly',
  interval: '1',
  name: 'Gold',
  amount: '49900',
  currency: 'INR',
  notes: [],
  ...o,
});

describe('plans create', () => {
  it.each([
    ['monthly', create(), { period: 'monthly', interval: 1, item: { name: 'Gold', amount: 49900, currency: 'INR' } }],
    [
      'quarterly, with a description and a note',
      create({ interval: '3', name: ' Quarterly ', description: 'every 3 months', notes: ['tier=gold'] }),
      { interval: 3, item: { name: 'Quarterly', description: 'every 3 months' }, notes: { tier: 'gold' } },
    ],
    [
      'yearly in dollars',
      create({ period: 'yearly', currency: 'usd' }),
      { period: 'yearly', item: { currency: 'USD' } },
    ],
  ])('%s: sends one POST /plans with that body', async (_name, opts, body) => {
    const f = fakeContext({ routes: { 'POST /plans': { body: planRecord } } });
    const result = await createPlan(opts, f.ctx);
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0]).toMatchObject({ method: 'POST', path: '/plans', body });
    expect(result).toEqual({ type: 'one', kind: 'plan', data: planRecord });
  });

  it.each([
    ['an amount in rupees with a decimal point', create({ amount: '499.00' }), /--amount.*did you mean 49900/],
    ['an interval of 0', create({ interval: '0' }), /--interval/],
    ['an interval that is not a number', create({ interval: 'two' }), /--interval/],
    ['an empty name', create({ name: '   ' }), /--name must not be empty/],
    ['a currency that is not 3 letters', create({ currency: 'RUPEE' }), /--currency/],
    ['a note without =', create({ notes: ['oops'] }), /--note/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(createPlan, opts, message);
  });

  it('--dry-run returns the request and sends nothing', async () => {
    await expectDryRun(createPlan, create(), { method: 'POST', path: '/plans' });
  });

  it('a lost answer is sent once and names the command that shows whether it was created', async () => {
    const f = fakeContext({ routes: { 'POST /plans': { body: { unexpected: true } } } });
    const err = await createPlan(create(), f.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).check).toContain('payctl api GET /plans -F count=5');
    expect(f.sent).toHaveLength(1);
  });
});

describe('plans list and get', () => {
  it('get reads one plan; a bad id is a usage error, nothing sent', async () => {
    const f = fakeContext({ routes: { 'GET /plans/:id': { body: planRecord } } });
    expect(await getPlan({ id: 'plan_new1' }, f.ctx)).toEqual({ type: 'one', kind: 'plan', data: planRecord });
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: '/plans/plan_new1' })]);
    await expectUsageError(getPlan, { id: 'sub_1' }, /plan id/);
  });

  it('list reads a page of plans', async () => {
    const f = fakeContext({
      routes: { 'GET /plans': { body: { entity: 'collection', count: 1, items: [planRecord] } } },
    });
    const result = await listPlans({ all: false, skip: '2' }, f.ctx);
    const rows: unknown[] = [];
    for await (const row of (result as { items: AsyncIterable<unknown> }).items) rows.push(row);
    expect(rows).toEqual([planRecord]);
    expect(f.sent[0]).toMatchObject({ method: 'GET', path: '/plans', query: { skip: 2 } });
  });
});
