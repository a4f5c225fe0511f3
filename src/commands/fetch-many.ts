import { createReadStream } from 'node:fs';
import { idEntry, idsFromText } from '../bulk/id-input';
import type { IdEntry, IdKind } from '../bulk/id-input';
import { stripControl } from '../output/sanitize';
import { ApiError, FailureError, RateLimitError, UsageError } from '../contract/errors';
import { plural } from '../output/plural';
import { paged } from '../rows/pages';
import type { Context } from './context';
import { readRecord } from './check';
import type { Pacer } from '../client/http';
import { intFlag } from './flags';
import { listedRows, newSummary, pageQuery } from './listing';
import type { CommandResult } from './result';

/** Requests in flight at once: the connection pool's size, so no request waits for a socket. */
const DEFAULT_CONCURRENCY = 16;
/**
 * How far the reads may run ahead of the oldest id not answered yet (whose row must come first): an id
 * retried for a while (a 429 again and again: up to ~16 s of backoff) holds back no more than this many
 * answers, which wait in memory to be written in input order.
 */
const WINDOW = 8192;
/** Ids waiting to retry at once, per request in flight: a service limiting every id is not flooded. */
const RESTING_PER_SLOT = 4;

export interface FetchManyOptions {
  ids: string[];
  /** A file of ids, or `-` for stdin: one id a line, or payctl's own JSON, NDJSON or CSV output. */
  input?: string;
  concurrency?: string;
}

const ENDPOINT = { payment: 'getPayment', refund: 'getRefund' } as const;

async function readInput(ctx: Context, name: string): Promise<string> {
  if (name === '-') return ctx.readStdin();
  try {
    let text = '';
    for await (const chunk of createReadStream(name, 'utf8')) text += chunk as string;
    return text;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --input ${name}: ${code === 'ENOENT' ? 'no such file' : (code ?? err)}`);
  }
}

/**
 * A refusal, an unreadable answer, another record than the one asked, or an id the service kept rate
 * limiting past every retry is that id's row; anything else (auth, network, a signal) ends the run.
 */
function failureText(err: unknown, id: string): string {
  // The service's own words, as the error of a single `get` quotes them.
  if (err instanceof ApiError)
    return stripControl(`the service says: ${err.message}${err.service.code ? ` (${err.service.code})` : ''}`);
  if (err instanceof FailureError || err instanceof RateLimitError) return stripControl(`${id}: ${err.message}`);
  throw err;
}

/**
 * `payments get` / `refunds get` of many ids (a single one is `readById`'s), from the arguments or --input,
 * read over the one connection pool with at most --concurrency requests in flight and streamed in input
 * order as they come: an id that fails is a row `{id, error}`, and the run exits 1 at the end saying how
 * many failed.
 */
export async function fetchMany(opts: FetchManyOptions, ctx: Context, kind: IdKind): Promise<CommandResult> {
  if (opts.input !== undefined && opts.ids.length)
    throw new UsageError(`give ${kind} ids as arguments or with --input, not both`);
  const concurrency = intFlag(opts.concurrency, '--concurrency', 1, 64) ?? DEFAULT_CONCURRENCY;
  const api = await ctx.api();
  const entries: IdEntry[] =
    opts.input === undefined
      ? opts.ids.map((raw, i) => idEntry(`argument ${i + 1}`, raw, kind))
      : idsFromText(await readInput(ctx, opts.input), kind);
  if (!entries.length) throw new UsageError(`no ${kind} ids to read: the input is empty`);
  const page = await pageQuery(ctx, { all: true }, kind);
  if (ctx.settings.dryRun) {
    const valid = entries.filter((e) => !e.problem) as { id: string }[];
    return { type: 'dry-run', requests: valid.map((e) => api.prepare(ENDPOINT[kind], { params: { id: e.id } })) };
  }
  const summary = newSummary(ctx, kind, page);
  let failed = 0;
  const fetchOne = async (e: IdEntry, pacer: Pacer): Promise<unknown> => {
    if (e.problem !== undefined) return { id: e.id ?? null, error: e.problem };
    try {
      return await readRecord(api, api.prepare(ENDPOINT[kind], { params: { id: e.id } }), pacer);
    } catch (err) {
      return { id: e.id, error: failureText(err, e.id) };
    }
  };
  const rows = (async function* () {
    // Up to `concurrency` requests in flight; a request waiting to retry lends its slot to the next id
    // (at most RESTING_PER_SLOT per slot wait at once), so a rate-limited id does not stall the ids behind
    // it. Rows are handed on in input order as soon as the oldest is in; up to WINDOW answers wait behind it.
    const done = new Map<number, { row: unknown } | { err: unknown }>();
    let head = 0;
    let next = 0;
    let active = 0;
    let resting = 0;
    const queued: Array<() => void> = [];
    let wake: (() => void) | undefined;
    const give = () => {
      active--;
      const waiting = queued.shift();
      if (waiting) waiting();
      else start();
    };
    const pacer: Pacer = {
      waiting() {
        resting++;
        give();
      },
      resumed() {
        resting--;
        if (active < concurrency) {
          active++;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => queued.push(() => resolve(void active++)));
      },
    };
    const start = () => {
      while (
        active < concurrency &&
        !queued.length &&
        resting < concurrency * RESTING_PER_SLOT &&
        next < entries.length &&
        next - head < WINDOW
      ) {
        const at = next++;
        active++;
        fetchOne(entries[at]!, pacer).then(
          (row) => settle(at, { row }),
          (err: unknown) => settle(at, { err }),
        );
      }
    };
    const settle = (at: number, outcome: { row: unknown } | { err: unknown }) => {
      done.set(at, outcome);
      give();
      wake?.();
    };
    start();
    for (; head < entries.length; head++) {
      while (!done.has(head)) await new Promise<void>((resolve) => (wake = resolve));
      const outcome = done.get(head)!;
      done.delete(head);
      if ('err' in outcome) throw outcome.err;
      const row = outcome.row;
      if ((row as { error?: unknown }).error !== undefined) failed++;
      else summary.note(row);
      start();
      yield [row];
    }
  })();
  const total = entries.length;
  return {
    type: 'many',
    kind,
    ...listedRows(paged(rows), page),
    summary,
    tagged: true,
    after: () => (failed ? undefined : `read ${plural(total, kind)}`),
    finish: () => {
      if (failed)
        throw new FailureError(`${failed} of ${plural(total, kind)} could not be read: see the rows with an error`);
    },
  };
}
