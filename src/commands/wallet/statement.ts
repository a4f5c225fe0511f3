import { readFile } from 'node:fs/promises';
import { ApiError, FailureError, UsageError } from '../../contract/errors';
import { paged, pagesOf } from '../../rows/pages';
import { LIMITS } from '../../contract/limits';
import { summaryLines, zoneText } from '../../output/summary';
import { dryRun } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { exportProgress, listedRows, listing, newSummary, pageQuery } from '../listing';
import type { Listed, PageOptions } from '../listing';
import type { CommandResult } from '../result';

export interface StatementOptions extends PageOptions {
  customers: string[];
  /** A file of customer ids, or - for stdin. */
  input?: string;
  oldestFirst: boolean;
  skipMissing: boolean;
}

/** Customer ids from arguments, or from --input (one per line; a `customer_id` header line is skipped). */
async function customerIds(ctx: Context, args: string[], input: string | undefined): Promise<string[]> {
  const raw = [...args];
  if (input !== undefined) {
    const text =
      input === '-'
        ? await ctx.readStdin()
        : await readFile(input, 'utf8').catch((e: Error) => {
            throw new UsageError(`--input: cannot read ${input}: ${e.message}`);
          });
    text.split(/\r?\n/).forEach((line, i) => {
      const v = line.split(',')[0]!.trim();
      if (v && !v.startsWith('#') && !(i === 0 && v === 'customer_id')) raw.push(v);
    });
  }
  if (raw.length === 0)
    throw new UsageError('missing CUSTOMER: payctl wallet statement cust_… [--from T] [--to T], or --input FILE');
  const ids = raw.map((a) => idArg(a, 'customer'));
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new UsageError(`customer ${dup} is listed twice`);
  return ids;
}

/** Why a customer has no statement to export: unknown to the service, or without a wallet (undefined: it has one). */
async function missing(ctx: Context, id: string): Promise<string | undefined> {
  const api = await ctx.api();
  try {
    await api.call('getWalletBalance', { params: { id } });
    return undefined;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const text = `${err.message} ${String(err.service.description ?? '')}`;
    if (err.status === 404 || /does not exist|not found|invalid/i.test(text)) return 'unknown customer';
    if (/wallet/i.test(text)) return 'no wallet';
    throw err;
  }
}

/** Checks every customer first (a few at a time), so a bad id is named before any row is written. */
async function checkCustomers(ctx: Context, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 8) {
    const batch = ids.slice(i, i + 8);
    const why = await Promise.all(batch.map((id) => missing(ctx, id)));
    batch.forEach((id, j) => why[j] && found.set(id, why[j]));
  }
  return found;
}

/**
 * What a wallet held before `from`: the balance after its newest entry before then (no entry: 0). A
 * period with no entries opens and closes on it, which an auditor asks for as much as any other.
 */
async function balanceBefore(ctx: Context, id: string, from: number | undefined): Promise<number> {
  if (from === undefined) return 0;
  const api = await ctx.api();
  const before = await api.call<{ items: Array<{ balance?: unknown }> }>('getWalletStatement', {
    params: { id },
    query: { to: from - 1, count: 1 },
  });
  return Number(before.items[0]?.balance ?? 0) || 0;
}

const named = (absent: Map<string, string>) => [...absent].map(([id, why]) => `${id} (${why})`).join(', ');

export async function statement(opts: StatementOptions, ctx: Context): Promise<CommandResult> {
  const customers = await customerIds(ctx, opts.customers, opts.input);
  // Several customers are an export: every page of each, unless --count asks for one page.
  const several = customers.length > 1 && !opts.all && opts.count === undefined;
  const page = await pageQuery(ctx, several ? { ...opts, all: true } : opts, 'customer_transaction');
  const { oldestFirst } = opts;
  if (oldestFirst && !page.all)
    throw new UsageError('--oldest-first orders a whole statement: use it with --all or --out');
  // Columns are fixed by the input kind: a list of customers always has customer_id, however long.
  const tagged = customers.length > 1 || opts.input !== undefined;
  if (ctx.settings.dryRun) {
    const api = await ctx.api();
    const query = { count: page.all ? LIMITS.count : page.count, skip: page.skip, from: page.from, to: page.to };
    return dryRun(...customers.map((id) => api.prepare('getWalletStatement', { params: { id }, query })));
  }
  const progress = exportProgress(ctx, page, customers.length);
  const walkOf = (id: string) => listing(ctx, 'getWalletStatement', page, {}, { id }, progress) as Promise<Listed>;
  // The first customer's first page is asked for while the customers are checked (a round trip sooner);
  // the others' walks start one after another as the rows reach them.
  const first = walkOf(customers[0]!);
  first.catch(() => undefined);
  const absent = await checkCustomers(ctx, customers);
  if (absent.size && !opts.skipMissing) {
    throw new FailureError(
      `no statement for ${named(absent)}: nothing was written; ` +
        '--skip-missing exports the other customers and lists these',
    );
  }
  const summary = newSummary(ctx, 'customer_transaction', page);
  summary.oldestFirst = oldestFirst;
  for (const [id, why] of absent) summary.customer(id).missing = why;
  const listed: Listed[] = [];
  const { reversed } = oldestFirst ? await import('../../output/spool') : { reversed: undefined };
  const rows = paged(
    (async function* () {
      for (const [i, id] of customers.entries()) {
        if (absent.has(id)) continue;
        const l = await (i === 0 ? first : walkOf(id));
        listed.push(l);
        for await (const page of pagesOf(reversed ? reversed(l.items) : l.items)) {
          for (const entry of page) summary.note(entry, id);
          yield tagged ? page.map((entry) => ({ customer_id: id, ...(entry as object) })) : page;
        }
        const ledger = summary.customer(id);
        if (ledger.rows === 0) ledger.opening = ledger.closing = await balanceBefore(ctx, id, page.from);
        progress?.customerDone();
      }
    })(),
  );
  const after = () => {
    const lines = page.all && !page.out ? [zoneText(summary.zone), ...summaryLines(summary)] : [];
    lines.push(...new Set(listed.map((l) => l.more('entries')).filter((m) => m !== undefined)));
    if (absent.size) lines.push(`skipped ${absent.size} customer(s) with no statement: ${named(absent)}`);
    return lines.length ? lines.join('\n') : undefined;
  };
  return { type: 'many', kind: 'customer_transaction', ...listedRows(rows, page, progress), tagged, summary, after };
}
