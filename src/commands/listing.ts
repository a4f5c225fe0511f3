import { LIMITS } from '../contract/limits';
import { UsageError } from '../contract/errors';
import type { CollectionEndpoint } from '../contract/endpoints';
import { walk } from '../client/paginate';
import { mapPages, paged, pagesOf } from '../rows/pages';
import type { ResourceKind } from '../output/columns';
import { ExportProgress } from '../output/export-progress';
import { plural } from '../output/plural';
import type { FileFormat } from '../output/export';
import { checkFields } from '../output/known-fields';
import { ExportSummary, summaryLines, zoneText } from '../output/summary';
import type { Context } from './context';
import { intFlag, rangeFlags } from './flags';
import type { CommandResult, ManyResult } from './result';

/** The service's page size when none is asked for. */
const SERVICE_COUNT = 10;

/** The page options of every list command, as given (checked by pageQuery). */
export interface PageOptions {
  from?: string;
  to?: string;
  count?: string;
  skip?: string;
  all: boolean;
  limit?: string;
}

export interface PageQuery {
  from?: number;
  to?: number;
  all: boolean;
  count?: number;
  skip?: number;
  limit?: number;
  /** --out: the file and its format (from the extension), checked before anything is sent. */
  out?: { path: string; format: FileFormat };
}

/**
 * Where a list goes decides how much of it is walked. A machine format (csv, json, ndjson) on a pipe or
 * in a file is read by a program that cannot see a stderr hint, so it gets every row: there `--all` is
 * implied unless `--count`/`--skip` pick one page or `--limit N` stops after N rows (both exact, as asked).
 * A terminal shows one page and says when more may exist.
 */
export function walksEverything(ctx: Context, opts: PageOptions, out: boolean): boolean {
  if (opts.all || out || opts.limit !== undefined) return true;
  const onePage = opts.count !== undefined || opts.skip !== undefined;
  return !onePage && ctx.settings.format !== 'table' && !ctx.io.stdoutIsTTY;
}

/**
 * Page options shared by every list: --out and a machine format to a pipe walk every page (unless
 * --limit, --count or --skip bound it), an --out format follows the extension, and its directory is
 * checked first; --fields are checked against the kind's columns.
 */
export async function pageQuery(ctx: Context, opts: PageOptions, kind: ResourceKind): Promise<PageQuery> {
  checkFields(kind, ctx.settings.fields);
  const { from, to } = await rangeFlags(ctx, opts);
  let out: PageQuery['out'];
  if (ctx.settings.out !== undefined) {
    const path = ctx.settings.out;
    const { fileFormat } = await import('../output/export');
    out = {
      path,
      format: fileFormat(
        path,
        ctx.settings.format,
        ctx.settings.formatSource ?? (ctx.settings.formatChosen ? 'flag' : 'default'),
      ),
    };
  }
  if ((opts.all || out || opts.limit !== undefined) && (opts.count !== undefined || opts.skip !== undefined)) {
    const why = opts.all
      ? 'with --all every page is walked'
      : out
        ? '--out writes every page'
        : '--limit N walks pages until N rows';
    throw new UsageError(`--count and --skip pick one page; ${why} (use --limit N to stop after N rows)`);
  }
  return {
    from,
    to,
    all: walksEverything(ctx, opts, out !== undefined),
    count: intFlag(opts.count, '--count', 1, LIMITS.count),
    skip: intFlag(opts.skip, '--skip', 0),
    limit: intFlag(opts.limit, '--limit', 1),
    out,
  };
}

export interface Listed {
  items: AsyncIterable<unknown>;
  /** Once the rows are out: why the list may be incomplete and how to get the rest, if it may be. */
  more(noun: string): string | undefined;
}

/**
 * One page, or every page (--all, --out). With `keep` (a filter the service cannot apply, like
 * --status), pages are walked until as many rows are kept as one page would show (or --limit), or
 * the range ends; a list that stopped at a full page or a limit says so.
 */
export async function listing(
  ctx: Context,
  endpoint: CollectionEndpoint,
  page: PageQuery,
  extra: Record<string, unknown> = {},
  params?: Record<string, string>,
  progress?: ExportProgress,
  keep?: (item: unknown) => boolean,
): Promise<{ dryRun: CommandResult } | Listed> {
  const api = await ctx.api();
  const walking = page.all || keep !== undefined;
  const first = api.prepare(endpoint, {
    params,
    query: { count: walking ? LIMITS.count : page.count, skip: page.skip, from: page.from, to: page.to, ...extra },
  });
  if (ctx.settings.dryRun) return { dryRun: { type: 'dry-run', requests: [first] } };
  if (!walking) {
    let fetched = 0;
    const asked = page.count ?? SERVICE_COUNT;
    return {
      items: (async function* () {
        const res = await api.execute<{ items: unknown[] }>(first);
        fetched = res.items.length;
        yield* res.items;
      })(),
      more: (noun) =>
        fetched >= asked
          ? `one page of ${fetched} ${noun} shown; more may exist: --all for every page, ` +
            `--skip ${(page.skip ?? 0) + fetched} for the next, --limit N for N rows`
          : undefined,
    };
  }
  const want = page.all ? page.limit : (page.limit ?? page.count ?? SERVICE_COUNT);
  let stopped = false;
  let pagesRead = 0;
  const rows = walk((q) => api.call<{ items: unknown[] }>(endpoint, { params, query: { ...extra, ...q } }), {
    from: page.from,
    to: page.to,
    skip: page.skip,
    limit: keep ? undefined : want,
    // A filter wanting one page of rows may find them in the first pages: no page asked past those.
    ahead: page.all ? 2 : 1,
    onPage: () => {
      pagesRead++;
      progress?.page();
    },
  });
  let kept = 0;
  return {
    // A page at a time (see rows/pages): the filter, the limit and the progress line per page.
    items: paged(
      (async function* () {
        for await (const page of pagesOf(rows)) {
          let out = keep ? page.filter(keep) : page;
          if (want !== undefined && kept + out.length >= want) {
            out = out.slice(0, want - kept);
            stopped = true;
          }
          kept += out.length;
          progress?.row(out.length);
          if (out.length) yield out;
          if (stopped) return;
        }
      })(),
    ),
    more: (noun) => {
      // A filter of payctl's own reads the service's pages to find its rows: how many it took is said.
      const read = keep ? `filtered by payctl: ${plural(pagesRead, 'page')} of the service's list read` : undefined;
      if (!stopped) return read;
      const why =
        page.limit !== undefined
          ? `stopped at --limit ${page.limit}: more ${noun} may exist`
          : `the first ${kept} ${noun} found shown; more may exist: --all for every one, ` +
            `--count N (up to ${LIMITS.count}) or --limit N for more`;
      return read ? `${read}\n${why}` : why;
    },
  };
}

/** Progress for a walk of every page, on a terminal's stderr; `finally` clears it however the walk ends. */
export function exportProgress(ctx: Context, page: { all: boolean }, customers = 0): ExportProgress | undefined {
  return page.all && ctx.io.stderrIsTTY ? new ExportProgress(ctx.io.stderr, customers) : undefined;
}

function clearedAfter<T>(items: AsyncIterable<T>, progress?: ExportProgress): AsyncIterable<T> {
  if (!progress) return items;
  return paged(
    (async function* () {
      try {
        yield* pagesOf(items);
      } finally {
        progress.clear();
      }
    })(),
  );
}

/** A list's rows as its result carries them: the progress line cleared after the last, --out where they go. */
export const listedRows = (rows: AsyncIterable<unknown>, page: PageQuery, progress?: ExportProgress) => ({
  items: clearedAfter(rows, progress),
  out: page.out?.path,
  outFormat: page.out?.format,
});

export function newSummary(ctx: Context, kind: ResourceKind, page: PageQuery): ExportSummary {
  // The zone stays a getter: finding the machine's asks ICU, and a JSON list never shows it.
  const zone = {
    get tz() {
      return ctx.settings.tz;
    },
    chosen: Boolean(ctx.settings.tzChosen),
  };
  return new ExportSummary(kind, { from: page.from, to: page.to }, zone);
}

/** A list's result: rows noted in its summary as they pass, the progress line cleared at the end. */
export function listResult(
  ctx: Context,
  kind: ResourceKind,
  noun: string,
  page: PageQuery,
  listed: Listed,
  progress?: ExportProgress,
): ManyResult {
  const summary = newSummary(ctx, kind, page);
  const items = mapPages(listed.items, (rows) => {
    for (const row of rows) summary.note(row);
    return rows;
  });
  // A whole list on stdout gets an export's totals on stderr (--out prints its own), and the zone when a range was given.
  const after = () => {
    const lines = page.all && !page.out ? summaryLines(summary) : [];
    if (lines.length && (page.from !== undefined || page.to !== undefined)) lines.unshift(zoneText(summary.zone));
    const more = listed.more(noun);
    if (more) lines.push(more);
    return lines.length ? lines.join('\n') : undefined;
  };
  return { type: 'many', kind, ...listedRows(items, page, progress), summary, after };
}
