import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Prepared } from '../api/client';
import { BulkIncompleteError, InterruptedError, UsageError } from '../api/errors';
import { Channel } from '../bulk/channel';
import { itemsFromArgs, parseBulkInput } from '../bulk/input';
import type { BulkItem, BulkOp, ParsedInput } from '../bulk/input';
import { Journal } from '../bulk/journal';
import { Progress } from '../bulk/progress';
import { runBulk } from '../bulk/runner';
import type { BulkRow, Summary } from '../bulk/runner';
import { formatMoney } from '../output/money';
import type { Context } from './context';
import { amountFlag, currencyFlag, intFlag, notesFlag } from './flags';
import type { CommandResult, Input } from './result';

const MAX_LISTED = 20;

async function readItems(op: BulkOp, { args, opts }: Input, ctx: Context): Promise<ParsedInput> {
  if (opts.input === undefined) return itemsFromArgs(args, op);
  if (args.length) throw new UsageError('give payment ids as arguments or with --input, not both');
  const source = String(opts.input);
  let text: string;
  try {
    text = source === '-' ? await ctx.readStdin() : await readFile(source, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --input ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseBulkInput(text, op);
}

/** --amount, --currency, --receipt and --note given on the command line fill what a row leaves out. */
function withDefaults(op: BulkOp, items: BulkItem[], opts: Input['opts']): BulkItem[] {
  const currency = currencyFlag(opts.currency);
  const amount = amountFlag(opts.amount, currency);
  if (op === 'capture' && (amount === undefined) !== (currency === undefined)) {
    throw new UsageError('--amount and --currency go together (without both, each payment\'s authorized amount is captured)');
  }
  const receipt = opts.receipt === undefined ? undefined : String(opts.receipt);
  const notes = notesFlag(opts.note);
  return items.map((item) => ({
    ...item,
    amount: item.amount ?? amount,
    currency: item.currency ?? (item.amount === undefined ? currency : undefined),
    receipt: item.receipt ?? receipt,
    notes: item.notes ?? notes,
  }));
}

function describeTotal(items: BulkItem[]): string {
  const byCurrency = new Map<string, number>();
  let unknown = 0;
  for (const item of items) {
    if (item.amount === undefined) unknown++;
    else byCurrency.set(item.currency ?? 'INR', (byCurrency.get(item.currency ?? 'INR') ?? 0) + item.amount);
  }
  const parts = [...byCurrency].map(([cur, sum]) => formatMoney(sum, cur));
  if (unknown) parts.push(`${unknown} at ${unknown === 1 ? 'its' : 'their'} full remaining amount`);
  return parts.join(' + ') || 'nothing';
}

function dryRun(op: BulkOp, items: BulkItem[], api: Awaited<ReturnType<Context['api']>>): CommandResult {
  const requests: Prepared[] = items.map((item) => {
    if (op === 'refund') return api.prepare('refundPayment', { params: { id: item.id }, body: { amount: item.amount, receipt: item.receipt, notes: item.notes } });
    if (item.amount !== undefined) return api.prepare('capturePayment', { params: { id: item.id }, body: { amount: item.amount, currency: item.currency } });
    const path = `/payments/${encodeURIComponent(item.id)}/capture`;
    return { endpoint: 'capturePayment', method: 'POST', path, url: api.http.url({ path }), body: { amount: `<amount of ${item.id}>`, currency: `<currency of ${item.id}>` } };
  });
  return { type: 'dry-run', requests, note: `${items.length} ${op}(s), total ${describeTotal(items)}` };
}

/** A live profile needs its name typed before a bulk run (or --yes --confirm-live NAME without a terminal). */
async function confirmRun(op: BulkOp, items: BulkItem[], opts: Input['opts'], ctx: Context) {
  const creds = await ctx.credentials();
  const what = `${op === 'capture' ? 'Capture' : 'Refund'} ${items.length} payment(s), total ${describeTotal(items)}`;
  if (!creds.live) return ctx.confirm(`${what}?`);
  const name = creds.source.replace(/^profile /, '');
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const { input } = await import('@inquirer/prompts');
    let typed: string;
    try {
      typed = await input({ message: `LIVE profile "${name}": ${what}. Type the profile name to go ahead:` }, { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal } as never);
    } catch {
      throw new InterruptedError('SIGINT');
    }
    if (typed.trim() !== name) throw new UsageError('the profile name was not typed: nothing was sent');
    return;
  }
  if (!ctx.settings.yes || opts.confirmLive !== name) {
    throw new UsageError(`"${name}" is a live profile and there is no terminal to confirm on: pass --yes --confirm-live ${name} (${what})`);
  }
}

function defaultJournal(op: BulkOp, ctx: Context): string {
  const stamp = new Date(ctx.nowMs()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return join(ctx.paths.state, 'journals', `${op}-${stamp}-${process.pid}.ndjson`);
}

function summaryLine(s: Summary, journal: string): string {
  const parts = [`${s.done} done`, `${s.skipped} skipped (already done)`, `${s.failed} failed`, `${s.unknown} unknown`];
  if (s.notStarted) parts.push(`${s.notStarted} not started`);
  return `${s.interrupted ? 'interrupted: ' : ''}${parts.join(', ')}; journal ${journal}`;
}

function incomplete(op: BulkOp, s: Summary, journal: string): BulkIncompleteError {
  const err = new BulkIncompleteError(`${s.failed + s.unknown} of the ${op}s did not complete (${s.failed} failed, ${s.unknown} unknown)`);
  const listed = s.attention.slice(0, MAX_LISTED);
  for (const row of listed) err.hints.push(`${row.result} ${row.payment_id} (line ${row.line}): ${row.reason ?? row.status ?? ''}`);
  if (s.attention.length > listed.length) err.hints.push(`… and ${s.attention.length - listed.length} more: see the output rows or the journal`);
  err.hints.push(`rerun with --journal ${journal} to retry what failed${op === 'refund' && s.unknown ? '; unknown refunds are resent only with --retry-unknown, after checking them' : ''}`);
  return err;
}

/**
 * Many captures or refunds: input checked in full before anything is sent, one journal that makes
 * the run resumable, bounded concurrency over one pool, one result row per payment, exit 7 when any
 * payment failed or its outcome is unknown.
 */
export async function bulk(op: BulkOp, input: Input, ctx: Context): Promise<CommandResult> {
  const { opts } = input;
  const concurrency = intFlag(opts.concurrency, '--concurrency', 1, 64) ?? 8;
  const parsed = await readItems(op, input, ctx);
  if (parsed.problems.length && !opts.skipInvalid) {
    const err = new UsageError(`${parsed.problems.length} bad input row(s); nothing was sent (fix them, or pass --skip-invalid to leave them out)`);
    for (const p of parsed.problems.slice(0, MAX_LISTED)) err.hints.push(`line ${p.line}: ${p.message}`);
    if (parsed.problems.length > MAX_LISTED) err.hints.push(`… and ${parsed.problems.length - MAX_LISTED} more`);
    throw err;
  }
  for (const p of parsed.problems) ctx.notice(`skipped line ${p.line}: ${p.message}`);
  const items = withDefaults(op, parsed.items, opts);
  if (!items.length) throw new UsageError('no payment ids to work on: the input is empty');

  const api = await ctx.api(undefined, { uninterruptible: true, connections: concurrency });
  if (ctx.settings.dryRun) return dryRun(op, items, api);
  for (const item of items) {
    // Same checks as the service's, so a row it would refuse is caught before any money moves.
    if (op === 'refund') api.prepare('refundPayment', { params: { id: item.id }, body: { amount: item.amount, receipt: item.receipt, notes: item.notes } });
  }
  await confirmRun(op, items, opts, ctx);

  const path = opts.journal === undefined ? defaultJournal(op, ctx) : String(opts.journal);
  const journal = Journal.open(path, op);
  ctx.notice(`journal: ${path} (the same --journal resumes this run)`);
  if (journal.resumed) {
    const counts = { done: 0, unknown: 0, in_flight: 0, failed: 0 };
    for (const item of items) {
      const state = journal.stateOf(item.id);
      if (state !== 'new') counts[state]++;
    }
    ctx.notice(`resuming: ${counts.done} done before, ${counts.in_flight} in flight when it stopped, ${counts.unknown} unknown, ${counts.failed} failed (retried)`);
  }
  journal.write({ type: 'run', op, at: new Date().toISOString(), pid: process.pid, items: items.length });

  const rows = new Channel<BulkRow>();
  const progress = new Progress(ctx.io.stderr, items.length, ctx.io.stderrIsTTY);
  let summary: Summary | undefined;
  const run = runBulk({ op, items, concurrency, journal, signal: ctx.signal, progress, api, retryUnknown: Boolean(opts.retryUnknown), onRow: (row) => rows.push(row) })
    .then((s) => (summary = s))
    .finally(() => {
      progress.clear();
      if (summary) {
        const { done, skipped, failed, unknown, notStarted: not_started } = summary;
        journal.write({ type: 'end', at: new Date().toISOString(), done, skipped, failed, unknown, not_started });
      }
      journal.close();
      rows.close();
    });
  run.catch(() => undefined); // surfaced by finish()

  return {
    type: 'many',
    kind: 'bulk_result',
    items: rows,
    after: () => (summary ? summaryLine(summary, path) : undefined),
    finish: async () => {
      const s = await run;
      if (s.interrupted) throw Object.assign(new InterruptedError('SIGINT'), { hints: [`stopped after the requests in flight; rerun with --journal ${path} to finish`] });
      if (s.failed || s.unknown) throw incomplete(op, s, path);
    },
  };
}
