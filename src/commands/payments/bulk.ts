import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Prepared } from '../../client/client';
import { BulkIncompleteError, InterruptedError, UsageError } from '../../contract/errors';
import { Channel } from '../../bulk/channel';
import { itemsFromArgs } from '../../bulk/input';
import type { BulkItem, BulkOp } from '../../bulk/input';
import { arraySource, fileSource, spool } from '../../bulk/source';
import type { ItemSource, Problems } from '../../bulk/source';
import { Journal } from '../../bulk/journal';
import { Interrupt, OutputClosedError } from '../../contract/errors';
import { Progress } from '../../bulk/progress';
import { runBulk } from '../../bulk/runner';
import { operations } from './operations';
import type { BulkRow, Summary } from '../../bulk/runner';
import type { Context } from '../context';
import { amountFlag, currencyFlag, intFlag, notesFlag } from '../flags';
import type { CommandResult, Input } from '../result';

const MAX_LISTED = 20;
/** With --skip-invalid, skipped rows listed one by one; beyond that only their number. */
const MAX_SKIPPED_LISTED = 1000;

/** --amount, --currency, --receipt and --note given on the command line fill what a row leaves out. */
function defaultsFrom(op: BulkOp, opts: Input['opts']): (item: BulkItem) => BulkItem {
  const currency = currencyFlag(opts.currency);
  const amount = amountFlag(opts.amount, currency);
  if (op === 'capture' && (amount === undefined) !== (currency === undefined)) {
    throw new UsageError(
      "--amount and --currency go together (without both, each payment's authorized amount is captured)",
    );
  }
  const receipt = opts.receipt === undefined ? undefined : String(opts.receipt);
  const notes = notesFlag(opts.note);
  return (item) => ({
    ...item,
    amount: item.amount ?? amount,
    currency: item.currency ?? (item.amount === undefined ? currency : undefined),
    receipt: item.receipt ?? receipt,
    notes: item.notes ?? notes,
  });
}

/**
 * The payments to work on. An --input file is checked whole now and read again as the run goes
 * (stdin is first copied to a private temporary file), so a million rows stay in bounded memory.
 */
async function readSource(op: BulkOp, { args, opts }: Input, ctx: Context): Promise<ItemSource> {
  const fill = defaultsFrom(op, opts);
  let source: ItemSource;
  let problems: Problems;
  if (opts.input === undefined) {
    const parsed = itemsFromArgs(args, op);
    source = arraySource(parsed.items.map(fill));
    problems = { first: parsed.problems, count: parsed.problemCount };
  } else {
    if (args.length) throw new UsageError('give payment ids as arguments or with --input, not both');
    const name = String(opts.input);
    try {
      const spooled = name === '-' ? await spool(ctx.io.stdin) : undefined;
      ({ source, problems } = await fileSource(spooled?.path ?? name, op, fill, MAX_SKIPPED_LISTED, spooled?.cleanup));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code && /^E[A-Z]+$/.test(code)) throw new UsageError(`cannot read --input ${name}: ${code}`);
      throw err;
    }
  }
  if (problems.count && !opts.skipInvalid) {
    source.cleanup();
    const err = new UsageError(
      `${problems.count} bad input row(s); nothing was sent (fix them, or pass --skip-invalid to leave them out)`,
    );
    for (const p of problems.first.slice(0, MAX_LISTED)) err.hints.push(`line ${p.line}: ${p.message}`);
    if (problems.count > MAX_LISTED) err.hints.push(`… and ${problems.count - MAX_LISTED} more`);
    throw err;
  }
  for (const p of problems.first) ctx.notice(`skipped line ${p.line}: ${p.message}`);
  if (problems.count > problems.first.length)
    ctx.notice(`… and ${problems.count - problems.first.length} more bad lines skipped`);
  if (!source.total) {
    source.cleanup();
    throw new UsageError('no payment ids to work on: the input is empty');
  }
  return source;
}

function dryRun(
  op: BulkOp,
  source: ItemSource,
  api: Awaited<ReturnType<Context['api']>>,
  table: boolean,
): CommandResult | Promise<CommandResult> {
  const request = (item: BulkItem): Prepared => {
    if (op === 'refund')
      return api.prepare('refundPayment', {
        params: { id: item.id },
        body: { amount: item.amount, receipt: item.receipt, notes: item.notes },
      });
    if (item.amount !== undefined)
      return api.prepare('capturePayment', {
        params: { id: item.id },
        body: { amount: item.amount, currency: item.currency },
      });
    const path = `/payments/${encodeURIComponent(item.id)}/capture`;
    return {
      endpoint: 'capturePayment',
      method: 'POST',
      path,
      url: api.http.url({ path }),
      body: { amount: `<amount of ${item.id}>`, currency: `<currency of ${item.id}>` },
    };
  };
  const note = `${source.total} ${op}(s), total ${source.totals.describe()}`;
  // Made one at a time as they are written: a million rows never become a million request objects at once.
  async function* requests() {
    try {
      for await (const item of source.items()) {
        const { method, url, body } = request(item);
        yield { method, url, body };
      }
    } finally {
      source.cleanup();
    }
  }
  if (table) {
    return (async () => {
      const all: Prepared[] = [];
      for await (const item of source.items()) all.push(request(item));
      source.cleanup();
      return { type: 'dry-run', requests: all, note } as CommandResult;
    })();
  }
  return {
    type: 'many',
    kind: 'generic',
    items: requests(),
    after: (n) => `dry run: ${n} request(s) shown, nothing sent (${note})`,
  };
}

/** A live profile needs its name typed before a bulk run (or --yes --confirm-live NAME without a terminal). */
async function confirmRun(op: BulkOp, source: ItemSource, opts: Input['opts'], ctx: Context) {
  const creds = await ctx.credentials();
  const what = `${op === 'capture' ? 'Capture' : 'Refund'} ${source.total} payment(s), total ${source.totals.describe()}`;
  if (!creds.live) return ctx.confirm(`${what}?`);
  const name = creds.source.replace(/^profile /, '');
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const { input } = await import('@inquirer/prompts');
    let typed: string;
    try {
      typed = await input({ message: `LIVE profile "${name}": ${what}. Type the profile name to go ahead:` }, {
        input: ctx.io.stdin,
        output: ctx.io.stderr,
        signal: ctx.signal,
      } as never);
    } catch {
      throw new InterruptedError('SIGINT');
    }
    if (typed.trim() !== name) throw new UsageError('the profile name was not typed: nothing was sent');
    return;
  }
  if (!ctx.settings.yes || opts.confirmLive !== name) {
    throw new UsageError(
      `"${name}" is a live profile and there is no terminal to confirm on: pass --yes --confirm-live ${name} (${what})`,
    );
  }
}

const profileSlug = (source: string) =>
  source
    .replace(/^profile /, '')
    .replace(/^environment$/, 'env')
    .replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * Named after the operation, the profile and what the run would send (every item, after defaults),
 * so the same input again resumes its journal instead of moving the money again.
 */
async function defaultJournal(op: BulkOp, digest: string, ctx: Context, newRun: boolean): Promise<string> {
  const creds = await ctx.credentials();
  const hash = createHash('sha256').update(`${op}\n${creds.baseUrl}\n${creds.keyId}\n${digest}\n`);
  const dir = join(ctx.paths.state, 'journals');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const stamp = newRun
    ? `-${new Date(ctx.nowMs()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${process.pid}`
    : '';
  return join(dir, `${op}-${profileSlug(creds.source)}-${hash.digest('hex').slice(0, 16)}${stamp}.ndjson`);
}

function summaryLine(s: Summary, journal: string): string {
  const parts = [`${s.done} done`, `${s.skipped} skipped (already done)`, `${s.failed} failed`, `${s.unknown} unknown`];
  if (s.notStarted) parts.push(`${s.notStarted} not started`);
  return `${s.interrupted ? 'interrupted: ' : ''}${parts.join(', ')}; journal ${journal}`;
}

function incomplete(op: BulkOp, s: Summary, journal: string, recheck: boolean): BulkIncompleteError {
  const err = new BulkIncompleteError(
    `${s.failed + s.unknown} of the ${op}s did not complete (${s.failed} failed, ${s.unknown} unknown)`,
  );
  const listed = s.attention.slice(0, MAX_LISTED);
  for (const row of listed)
    err.hints.push(`${row.result} ${row.payment_id} (line ${row.line}): ${row.reason ?? row.status ?? ''}`);
  if (s.attention.length > listed.length)
    err.hints.push(`… and ${s.attention.length - listed.length} more: see the output rows or the journal`);
  if (s.unknown)
    err.hints.push(
      `\`payctl payments ${op} --recheck --journal ${journal}\` reads them back later without sending anything`,
    );
  if (!recheck)
    err.hints.push(
      `rerun with --journal ${journal} to retry what failed${op === 'refund' && s.unknown ? '; a refund read back as not applied is resent only with --retry-unknown' : ''}`,
    );
  return err;
}

/** Why the run stopped early: a signal, or stdout that can no longer be written. */
function stopped(s: Summary, journal: string, reason: unknown): Error {
  const resume = `rerun with --journal ${journal} to finish`;
  if (reason instanceof OutputClosedError) {
    const err = new BulkIncompleteError(
      `stdout failed (${reason.code}): stopped taking payments after the requests in flight; ${summaryLine(s, journal).replace(/^interrupted: /, '')}`,
    );
    err.hints.push(resume);
    return err;
  }
  return Object.assign(new InterruptedError(reason instanceof Interrupt ? reason.signal : 'SIGINT'), {
    hints: [`stopped after the requests in flight; ${resume}`],
  });
}

/** The payments an earlier run of this journal sent without learning the outcome. */
function recheckItems(journal: Journal): BulkItem[] {
  return journal.unresolved().map((r) => ({ line: r.line, id: r.id, amount: r.amount, currency: r.currency }));
}

/**
 * Many captures or refunds: input checked in full before anything is sent, one journal that makes
 * the run resumable, bounded concurrency over one pool, one result row per payment, exit 7 when any
 * payment failed or its outcome is unknown. `--recheck` only reads back a journal's unknowns.
 */
export async function bulk(op: BulkOp, input: Input, ctx: Context): Promise<CommandResult> {
  const { opts } = input;
  const concurrency = intFlag(opts.concurrency, '--concurrency', 1, 64) ?? 8;
  const recheck = Boolean(opts.recheck);
  let source: ItemSource | undefined;
  if (!recheck || input.args.length || opts.input !== undefined) source = await readSource(op, input, ctx);
  else if (opts.journal === undefined)
    throw new UsageError('--recheck needs the journal: --journal FILE, or the same input as the run');

  let journal: Journal;
  let path: string;
  try {
    const api = await ctx.api(undefined, { uninterruptible: true, connections: concurrency });
    if (ctx.settings.dryRun && !recheck) return await dryRun(op, source!, api, ctx.settings.format === 'table');
    path =
      opts.journal === undefined
        ? await defaultJournal(op, source!.digest, ctx, Boolean(opts.newRun) && !recheck)
        : String(opts.journal);
    const existed = existsSync(path);
    if (recheck && !existed) throw new UsageError(`no journal ${path} to recheck`);
    if (!recheck) await confirmRun(op, source!, opts, ctx);
    journal = Journal.open(path, op);
    if (journal.repaired)
      ctx.notice(
        `journal ${path}: removed its last record, cut short by a kill (${journal.repaired} bytes); nothing it described was sent`,
      );
    if (recheck) {
      source?.cleanup();
      source = arraySource(recheckItems(journal));
      ctx.notice(
        `rechecking ${source.total} payment(s) of journal ${path} whose outcome is not known; nothing is sent`,
      );
    } else if (opts.journal === undefined && existed) {
      ctx.notice(`same input as an earlier run: resuming its journal ${path} (pass --new-run to ${op} them all again)`);
    } else {
      ctx.notice(`journal: ${path} (the same --journal resumes this run)`);
    }
    if (journal.resumed && !recheck) {
      const c = journal.counts();
      ctx.notice(
        `resuming: ${c.done} done before, ${c.in_flight} in flight when it stopped, ${c.unknown} unknown (read back first), ${c.failed} failed (retried)`,
      );
    }
    if (!recheck)
      journal.write({ type: 'run', op, at: new Date().toISOString(), pid: process.pid, items: source!.total });
  } catch (err) {
    source?.cleanup();
    throw err;
  }
  const api = await ctx.api(undefined, { uninterruptible: true, connections: concurrency });
  const items = source!;

  const rows = new Channel<BulkRow>();
  const progress = new Progress(ctx.io.stderr, items.total, ctx.io.stderrIsTTY);
  let summary: Summary | undefined;
  const run = runBulk({
    op,
    items: items.items(),
    total: items.total,
    concurrency,
    journal,
    signal: ctx.signal,
    progress,
    perform: (item, at) => operations[op](item, at, { api, retryUnknown: Boolean(opts.retryUnknown), recheck }),
    recheck,
    onRow: (row) => rows.push(row),
  })
    .then((s) => (summary = s))
    .finally(() => {
      progress.clear();
      if (summary && !recheck) {
        const { done, skipped, failed, unknown, notStarted: not_started } = summary;
        journal.write({ type: 'end', at: new Date().toISOString(), done, skipped, failed, unknown, not_started });
      }
      journal.close();
      items.cleanup();
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
      if (s.interrupted) throw stopped(s, path, ctx.signal.reason);
      if (s.failed || s.unknown) throw incomplete(op, s, path, recheck);
    },
  };
}
