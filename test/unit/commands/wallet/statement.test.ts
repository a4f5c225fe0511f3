import { describe, expect, it } from 'vitest';
import { exportStatement } from '../../../../src/commands/wallet/handlers';
import type { StatementOptions } from '../../../../src/commands/wallet/statement';
import type { CommandResult } from '../../../../src/commands/result';
import { FailureError, UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import type { Routes } from '../fake-context';

const A = 'cust_AAAAAAAAAAAAAA';
const B = 'cust_BBBBBBBBBBBBBB';
const UNKNOWN = 'cust_UNKNOWN0000000';
const NO_WALLET = 'cust_NOWALLET00000';

const entry = (id: string, created_at: number, credit: number) => ({
  id,
  entity: 'customer_transaction',
  type: 'transfer',
  amount: credit,
  credit,
  debit: 0,
  balance: credit,
  created_at,
});
const ledger: Record<string, ReturnType<typeof entry>[]> = {
  [A]: [entry('ctxn_a2', 1_790_000_200, 300), entry('ctxn_a1', 1_790_000_100, 200)],
  [B]: [entry('ctxn_b1', 1_790_000_150, 500)],
};

const routes: Routes = {
  'GET /customers/:id/balance': (_req, { id }) => {
    if (id === NO_WALLET)
      return { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'no wallet' } } };
    if (!ledger[id!]) {
      const description = `The customer ${id} does not exist`;
      return { status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description } } };
    }
    return { body: { balance: 0 } };
  },
  'GET /customers/:id/statement': (req, { id }) => {
    const skip = Number(req.query?.skip ?? 0);
    const items = ledger[id!]!.slice(skip, skip + Number(req.query?.count ?? 10));
    return { body: { entity: 'collection', count: items.length, items } };
  },
};

const options = (o: Partial<StatementOptions> = {}): StatementOptions => ({
  customers: [A],
  all: false,
  oldestFirst: false,
  skipMissing: false,
  ...o,
});

async function rows(result: CommandResult): Promise<Array<Record<string, unknown>>> {
  if (result.type !== 'many') throw new Error(`expected rows, got ${result.type}`);
  const out: Array<Record<string, unknown>> = [];
  for await (const row of result.items) out.push(row as Record<string, unknown>);
  return out;
}

const statements = (sent: Array<{ path: string }>) => sent.filter((r) => r.path.endsWith('/statement'));

describe('wallet statement', () => {
  it('one customer: one page of its entries, no customer_id column', async () => {
    const f = fakeContext({ routes });
    const result = await exportStatement(options({ count: '2' }), f.ctx);
    expect((await rows(result)).map((r) => r.id)).toEqual(['ctxn_a2', 'ctxn_a1']);
    expect(result).toMatchObject({ type: 'many', kind: 'customer_transaction', tagged: false });
    expect(statements(f.sent)).toEqual([
      expect.objectContaining({ method: 'GET', path: `/customers/${A}/statement`, query: { count: 2 } }),
    ]);
    // JSON on stdout: a script reads it, and the discontinued notice stays out of its way.
    expect(f.stderr()).not.toMatch(/discontinued/);
  });

  it('several customers: every page of each, in order, each row tagged with its customer', async () => {
    const f = fakeContext({ routes });
    const result = await exportStatement(options({ customers: [A, B] }), f.ctx);
    expect((await rows(result)).map((r) => [r.customer_id, r.id])).toEqual([
      [A, 'ctxn_a2'],
      [A, 'ctxn_a1'],
      [B, 'ctxn_b1'],
    ]);
    expect(result).toMatchObject({ tagged: true });
    // A short page is not the end: each ledger's page after it (from its last row) shows there is no more.
    expect(statements(f.sent).map((r) => r.path)).toEqual([
      `/customers/${A}/statement`,
      `/customers/${A}/statement`,
      `/customers/${B}/statement`,
      `/customers/${B}/statement`,
    ]);
  });

  it('customers from --input - (stdin), header and comments skipped; --oldest-first reverses each ledger', async () => {
    const f = fakeContext({ routes, stdin: `customer_id\n# finance list\n${B}\n${A},extra\n` });
    const result = await exportStatement(options({ customers: [], input: '-', all: true, oldestFirst: true }), f.ctx);
    expect((await rows(result)).map((r) => r.id)).toEqual(['ctxn_b1', 'ctxn_a1', 'ctxn_a2']);
  });

  it('an unknown customer and one without a wallet are named, and theirs are not asked for', async () => {
    const f = fakeContext({ routes });
    const err = await exportStatement(options({ customers: [A, UNKNOWN, NO_WALLET] }), f.ctx).catch((e) => e);
    expect(err).toBeInstanceOf(FailureError);
    expect((err as Error).message).toContain(`${UNKNOWN} (unknown customer), ${NO_WALLET} (no wallet)`);
    expect((err as Error).message).toContain('nothing was written; --skip-missing');
    // Only the first customer's first page, asked for while the customers were checked (never read).
    expect(statements(f.sent).map((r) => r.path)).toEqual([`/customers/${A}/statement`]);
  });

  it('--skip-missing exports the others and names the unknown ones afterwards', async () => {
    const f = fakeContext({ routes });
    const result = await exportStatement(options({ customers: [UNKNOWN, A, B], skipMissing: true }), f.ctx);
    expect((await rows(result)).map((r) => r.customer_id)).toEqual([A, A, B]);
    // The first customer's first page goes out while the customers are checked: asked, never read.
    expect(statements(f.sent).map((r) => r.path)).toEqual([
      `/customers/${UNKNOWN}/statement`,
      `/customers/${A}/statement`,
      `/customers/${A}/statement`,
      `/customers/${B}/statement`,
      `/customers/${B}/statement`,
    ]);
    if (result.type !== 'many') throw new Error('expected rows');
    expect(result.after?.(3)).toContain(`skipped 1 customer(s) with no statement: ${UNKNOWN} (unknown customer)`);
  });

  it('--dry-run shows one request per customer and sends nothing', async () => {
    const f = fakeContext({ routes, settings: { dryRun: true } });
    const result = await exportStatement(options({ customers: [A, B] }), f.ctx);
    expect(result).toMatchObject({
      type: 'dry-run',
      requests: [{ path: `/customers/${A}/statement` }, { path: `/customers/${B}/statement` }],
    });
    expect(f.sent).toHaveLength(0);
  });

  it.each([
    ['no customer at all', options({ customers: [] }), /missing CUSTOMER/],
    ['a customer listed twice', options({ customers: [A, B, A] }), /listed twice/],
    ['a customer id that is not cust_…', options({ customers: ['pay_x1'] }), /customer id/],
    ['--oldest-first on one page', options({ oldestFirst: true }), /--oldest-first/],
    ['--from after --to', options({ from: '2024-05-01', to: '2024-04-01' }), /--from is after --to/],
    ['an --input file that cannot be read', options({ customers: [], input: '/nonexistent/ids.txt' }), /--input/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    // On a terminal: a machine format to a pipe walks the whole statement (and may be oldest first).
    const f = fakeContext({ routes, settings: { format: 'table' } });
    const err = await exportStatement(opts, f.ctx).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect(f.sent).toHaveLength(0);
  });
});
