import { UsageError } from '../api/errors';
import { walk } from '../api/paginate';
import { ExportProgress } from '../output/export-progress';
import type { Context } from './context';
import { intFlag, rangeFlags } from './flags';
import type { CommandResult } from './result';

/** Page query shared by `orders list` and `payments list`. */
export async function pageQuery(ctx: Context, opts: Record<string, unknown>) {
  const { from, to } = await rangeFlags(ctx, opts);
  const all = Boolean(opts.all);
  if (all && (opts.count !== undefined || opts.skip !== undefined)) {
    throw new UsageError('--count and --skip pick one page; with --all every page is walked (use --limit to stop early)');
  }
  if (!all && opts.limit !== undefined) throw new UsageError('--limit goes with --all');
  return {
    from,
    to,
    all,
    count: intFlag(opts.count, '--count', 1, 100),
    skip: intFlag(opts.skip, '--skip', 0),
    limit: intFlag(opts.limit, '--limit', 1),
  };
}

/** One page, or every page with --all; handlers share it for every list endpoint. */
export async function listing(
  ctx: Context,
  endpoint: 'listOrders' | 'listPayments' | 'getWalletStatement',
  page: Awaited<ReturnType<typeof pageQuery>>,
  extra: Record<string, unknown> = {},
  params?: Record<string, string>,
  progress?: ExportProgress,
): Promise<{ dryRun: CommandResult } | { items: AsyncIterable<unknown> }> {
  const api = await ctx.api();
  const first = api.prepare(endpoint, { params, query: { count: page.all ? 100 : page.count, skip: page.skip, from: page.from, to: page.to, ...extra } });
  if (ctx.settings.dryRun) return { dryRun: { type: 'dry-run', requests: [first] } };
  if (!page.all) {
    return {
      items: (async function* () {
        const res = await api.execute<{ items: unknown[] }>(first);
        yield* res.items;
      })(),
    };
  }
  const rows = walk((q) => api.call<{ items: unknown[] }>(endpoint, { params, query: { ...extra, ...q } }), {
    from: page.from,
    to: page.to,
    limit: page.limit,
    onPage: () => progress?.page(),
  });
  if (!progress) return { items: rows };
  return {
    items: (async function* () {
      for await (const row of rows) {
        progress.row();
        yield row;
      }
    })(),
  };
}

/** Progress for a walk of every page, on a terminal's stderr; `finally` clears it however the walk ends. */
export function exportProgress(ctx: Context, page: { all: boolean }, customers = 0): ExportProgress | undefined {
  return page.all && ctx.io.stderrIsTTY ? new ExportProgress(ctx.io.stderr, customers) : undefined;
}

export async function* clearedAfter<T>(items: AsyncIterable<T>, progress?: ExportProgress): AsyncGenerator<T> {
  try {
    yield* items;
  } finally {
    progress?.clear();
  }
}

