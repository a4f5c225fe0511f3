import { describe, expect, it } from 'vitest';
import { planBulk } from '../../../../src/commands/payments/bulk-options';
import type { BulkRun } from '../../../../src/commands/payments/bulk-options';
import { incomplete, nextCommands, stopped, summaryLine } from '../../../../src/commands/payments/bulk-report';
import type { Summary } from '../../../../src/bulk/runner';
import { profileSlug } from '../../../../src/commands/payments/bulk-journal';
import { BulkIncompleteError, InterruptedError, UsageError } from '../../../../src/contract/errors';
import { Interrupt, OutputClosedError } from '../../../../src/commands/aborts';
import { PAY, PAY2, noRefundFlags } from './fixtures';

const inv = { profile: 'shop', sandbox: false, yes: true, tz: 'Asia/Kolkata' };
const next = nextCommands(inv, 'refund', 'j');
const run = (o: Partial<BulkRun> = {}): BulkRun => ({
  op: 'refund',
  ids: [PAY, PAY2],
  ...noRefundFlags,
  ...o,
});

describe('planBulk: the flags checked before any input is read', () => {
  it.each([
    ['--recheck with --retry-unknown', run({ recheck: true, retryUnknown: true, journal: 'j' }), /--retry-unknown/],
    ['--recheck with --new-run', run({ recheck: true, newRun: true, journal: 'j' }), /--new-run/],
    ['ids and --input', run({ input: 'ids.txt' }), /as arguments or with --input, not both/],
    ['--concurrency 0', run({ concurrency: '0' }), /--concurrency/],
    ['--concurrency 65', run({ concurrency: '65' }), /--concurrency/],
    ['--concurrency many', run({ concurrency: 'many' }), /--concurrency/],
    ['--recheck with neither input nor --journal', run({ ids: [], recheck: true }), /--recheck needs the journal/],
    ['capture --amount alone', run({ op: 'capture', amount: '100' }), /--amount and --currency go together/],
    ['capture --currency alone', run({ op: 'capture', currency: 'INR' }), /--amount and --currency go together/],
    ['a decimal --amount', run({ amount: '1.50' }), /--amount/],
    ['a note without =', run({ notes: ['x'] }), /--note/],
  ])('%s: a usage error', (_name, r, message) => {
    expect(() => planBulk(r)).toThrow(UsageError);
    expect(() => planBulk(r)).toThrow(message);
  });

  it.each([
    ['ids', run(), 8, true],
    ['--input with --concurrency', run({ ids: [], input: '-', concurrency: '64' }), 64, true],
    ['--recheck of a named journal', run({ ids: [], recheck: true, journal: 'j.ndjson' }), 8, false],
    ['--recheck with the same input', run({ recheck: true }), 8, true],
    ['--retry-unknown on a resume', run({ retryUnknown: true, journal: 'j.ndjson' }), 8, true],
  ])('%s: concurrency %d, reads input: %s', (_name, r, concurrency, readInput) => {
    expect(planBulk(r)).toMatchObject({ concurrency, readInput });
  });

  it.each([
    [
      'capture: --amount/--currency fill rows without an amount',
      run({ op: 'capture', amount: '100', currency: 'INR' }),
    ],
    [
      'refund: --amount, --receipt and --note fill what rows leave out',
      run({ amount: '100', receipt: 'r', notes: ['a=1'] }),
    ],
  ])('%s', (_name, r) => {
    const { fill } = planBulk(r);
    const bare = fill({ line: 1, id: PAY });
    expect(bare).toMatchObject({ amount: 100 });
    if (r.op === 'capture') expect(bare.currency).toBe('INR');
    else expect(bare).toMatchObject({ receipt: 'r', notes: { a: '1' } });
    const own = fill({ line: 2, id: PAY2, amount: 7, currency: 'USD', receipt: 'mine', notes: { b: '2' } });
    expect(own).toMatchObject({ amount: 7, currency: 'USD', receipt: 'mine', notes: { b: '2' } });
  });
});

const summary = (o: Partial<Summary> = {}): Summary => ({
  done: 3,
  skipped: 1,
  failed: 0,
  unknown: 0,
  duplicate: 0,
  notStarted: 0,
  interrupted: false,
  attention: [],
  ...o,
});
const row = (n: number, result: 'failed' | 'unknown') => ({
  line: n,
  payment_id: `pay_${String(n).padStart(14, '0')}`,
  op: 'refund' as const,
  result,
  status: null,
  amount: null,
  currency: null,
  refund_id: null,
  reason: `reason ${n}`,
});

describe('bulk report', () => {
  it.each([
    [summary(), '3 done, 1 skipped (already done), 0 failed, 0 unknown; journal j'],
    [
      summary({ interrupted: true, notStarted: 5 }),
      'interrupted: 3 done, 1 skipped (already done), 0 failed, 0 unknown, 5 not started; journal j',
    ],
  ])('summary line %#', (s, line) => {
    expect(summaryLine(s, 'j')).toBe(line);
  });

  it('incomplete: exit 7 listing the first 20, with recheck and resume hints', () => {
    const attention = [...Array.from({ length: 21 }, (_, i) => row(i + 1, 'failed')), row(22, 'unknown')];
    const err = incomplete('refund', summary({ failed: 21, unknown: 1, attention }), 'j', false, next);
    expect(err).toBeInstanceOf(BulkIncompleteError);
    expect(err.message).toBe('22 of the refunds did not complete (21 failed, 1 unknown)');
    expect(err.hints[0]).toBe('failed pay_00000000000001 (line 1): reason 1');
    expect(err.hints).toContain('… and 2 more: see the output rows or the journal');
    expect(err.hints).toContain(
      '`payctl -p shop payments refund --recheck --journal j` reads them back later without sending anything',
    );
    expect(err.hints.at(-1)).toMatch(
      /rerun `payctl -p shop payments refund --journal j --yes` .*look for each unknown refund by its key/,
    );
  });

  it('incomplete after a recheck: no rerun hint', () => {
    const err = incomplete('capture', summary({ unknown: 1, attention: [row(1, 'unknown')] }), 'j', true, next);
    expect(err.hints.some((h) => h.startsWith('rerun'))).toBe(false);
  });

  it.each([
    ['SIGTERM', new Interrupt('SIGTERM'), InterruptedError, /SIGTERM/],
    ['an unknown reason', undefined, InterruptedError, /SIGINT/],
    ['stdout closed', new OutputClosedError('EPIPE'), BulkIncompleteError, /stdout failed \(EPIPE\)/],
  ])('stopped by %s', (_name, reason, kind, message) => {
    const err = stopped(summary({ interrupted: true }), 'j', reason, next) as InterruptedError;
    expect(err).toBeInstanceOf(kind);
    expect(err.message).toMatch(message);
    expect(err.hints.join('\n')).toMatch('rerun `payctl -p shop payments refund --journal j --yes` to finish');
  });

  it.each([
    ['profile prod', 'prod'],
    ['environment', 'env'],
    ['profile my shop/eu', 'my_shop_eu'],
  ])('journal name part of %s: %s', (source, slug) => {
    expect(profileSlug(source)).toBe(slug);
  });
});
