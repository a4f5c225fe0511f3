import { readFile } from 'node:fs/promises';
import type { Prepared } from '../../client/client';
import { FailureError, OutcomeUnknownError, UsageError } from '../../contract/errors';
import { walk, walkByOffset } from '../../client/paginate';
import { endpoints, matchPath } from '../../contract/endpoints';
import type { Endpoint } from '../../contract/endpoints';
import type { PageWindow } from '../../contract/requests';
import type { ResourceKind } from '../../output/columns';
import { kindNamed } from '../../contract/kinds';
import { formatMoney } from '../../output/money';
import { isCaptured } from '../../contract/rules';
import { fieldsToBody, parseApiPath, parseField } from './request';
import type { Field } from './request';
import type { EndpointName } from '../../contract';
import { withCheck } from '../check';
import type { Context } from '../context';
import { intFlag, need } from '../flags';
import { many } from '../result';
import type { CommandResult } from '../result';

/** The table columns for what came back: the record's `entity`, else the list the path names. */
function kindOf(path: string, value?: unknown): ResourceKind {
  const entity = (value as { entity?: unknown } | null)?.entity;
  const byEntity = typeof entity === 'string' && entity !== 'collection' ? kindNamed(entity) : undefined;
  return byEntity ?? kindNamed(path.split('/').filter(Boolean).at(-1) ?? '') ?? 'generic';
}

const itemsOf = (value: unknown): unknown[] | undefined => {
  const items = (value as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items : undefined;
};

/** How a write reads in its confirmation: method, URL, body, and the amount in human form. */
function describeWrite(method: string, url: string, body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const currency = typeof b.currency === 'string' ? b.currency : undefined;
  const amount =
    typeof b.amount !== 'number'
      ? ''
      : ` — amount ${currency ? formatMoney(b.amount, currency) : `${b.amount} in the smallest currency unit`}`;
  const json = body === undefined ? '' : ` ${JSON.stringify(body)}`;
  return `Send ${method} ${url}${json.length > 300 ? `${json.slice(0, 299)}…` : json}${amount}?`;
}

async function readBody(ctx: Context, file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await ctx.readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--input ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${file} is not JSON: the request body must be a JSON document`);
  }
}

export interface CallApiOptions {
  /** GET or POST when a path follows; else the path itself. */
  methodOrPath: string;
  path?: string;
  /** -F key=value: typed values. */
  fields: string[];
  /** -f key=value: strings. */
  rawFields: string[];
  /** A JSON body: a file, or - for stdin. */
  input?: string;
  all: boolean;
  limit?: string;
}

/** `payctl api [METHOD] PATH`: any endpoint, with the profile, retries, confirmations and output of named commands. */
export async function callApi(opts: CallApiOptions, ctx: Context): Promise<CommandResult> {
  const fields: Field[] = [
    ...opts.fields.map((p) => need(parseField(p, true))),
    ...opts.rawFields.map((p) => need(parseField(p, false))),
  ];
  const { input, all } = opts;
  // As with `gh api`: GET unless fields or a body are given.
  const method =
    opts.path === undefined ? (fields.length || input !== undefined ? 'POST' : 'GET') : opts.methodOrPath.toUpperCase();
  if (method !== 'GET' && method !== 'POST' && method !== 'PATCH') {
    throw new UsageError(
      'payctl api sends GET, POST or PATCH (every endpoint of the service is one of them): ' +
        `got ${JSON.stringify(opts.methodOrPath)}`,
    );
  }
  if (method === 'GET' && input !== undefined)
    throw new UsageError('--input is a request body: it goes with POST or PATCH');
  if (all && method !== 'GET') throw new UsageError('--all walks the pages of a list: it goes with GET');
  const limit = intFlag(opts.limit, '--limit', 1);
  if (limit !== undefined && !all) throw new UsageError('--limit goes with --all');

  const creds = await ctx.credentials();
  const prefix = new URL(creds.baseUrl).pathname.replace(/\/+$/, '');
  const target = need(parseApiPath(opts.path ?? opts.methodOrPath, prefix));
  // Fields are the body of a POST, unless --input is the body: then, as for a GET, they are the query.
  const fieldsInQuery = method === 'GET' || input !== undefined;
  const query: Record<string, string> = {
    ...target.query,
    ...(fieldsInQuery ? Object.fromEntries(fields.map((f) => [f.key, f.text])) : {}),
  };
  if (all && (query.count !== undefined || query.skip !== undefined))
    throw new UsageError('--all walks every page (count/skip): leave count and skip out, or use --limit');
  const body =
    method === 'GET' ? undefined : input !== undefined ? await readBody(ctx, input) : need(fieldsToBody(fields));

  const api = await ctx.api();
  const url = api.http.url({ path: target.path, query: all ? { ...query, count: 100, skip: 0 } : query });
  const out = ctx.settings.out;
  if (ctx.settings.dryRun) {
    const req = { endpoint: '' as EndpointName, method, path: target.path, url, body } satisfies Prepared;
    return { type: 'dry-run', requests: [req], note: all ? 'the first page; --all walks the rest' : undefined };
  }
  if (method !== 'GET') await ctx.confirm(describeWrite(method, url, body));

  if (all) {
    const { from, to } = { from: numberOr(query.from, 'from'), to: numberOr(query.to, 'to') };
    const rest = Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'from' && k !== 'to'));
    const fetchPage = async (page: PageWindow) => {
      const value = await api.request<unknown>('GET', target.path, { ...rest, ...page });
      const items = itemsOf(value);
      if (!items)
        throw new FailureError(
          `${target.path} did not answer with a list (no "items"): --all walks the pages of a list`,
        );
      return { items };
    };
    const byOffset = Object.values(endpoints).some(
      (e: Endpoint) => e.offsetOrdered && e.method === 'GET' && matchPath(e.path, target.path),
    );
    const rows = byOffset
      ? walkByOffset((page) => fetchPage({ ...page, from, to }), { limit })
      : walk(fetchPage, { from, to, limit });
    const after = (n: number) =>
      limit !== undefined && n >= limit
        ? `stopped at --limit ${limit}: more rows of ${target.path} may exist`
        : undefined;
    return { ...many(kindOf(target.path), rows), out, after };
  }

  let value: unknown;
  try {
    value = await api.request<unknown>(method, target.path, query, body);
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError) || method !== 'POST') throw err;
    value = await reconcileCapture(ctx, target.path, body, err);
  }
  const items = itemsOf(value);
  const more = items && method === 'GET' ? onePage(ctx, target.path, query, items.length) : {};
  // A list is rows for table, CSV and NDJSON; JSON prints the service's answer exactly.
  if (items && ctx.settings.format !== 'json')
    return { ...many(kindOf(target.path, items[0]), items), out, after: more.after, finish: more.finish };
  return { type: 'one', kind: kindOf(target.path, value), data: value, out, ...more };
}

/**
 * One page of a list without --all. A full page may not be all: a terminal is told so on stderr; a
 * file or pipe in a machine format (read by a program, which cannot see the hint) gets the page and
 * exit 1 naming --all, unless count or skip asked for exactly that page.
 */
function onePage(ctx: Context, path: string, query: Record<string, string>, got: number) {
  const asked = /^\d+$/.test(query.count ?? '') ? Number(query.count) : 10;
  if (got === 0 || got < asked) return {};
  const text = `one page of ${got} rows of ${path}: more may exist; --all walks every page (--limit N stops after N)`;
  const exact = query.count !== undefined || query.skip !== undefined;
  const machine = ctx.settings.format !== 'table' && (!ctx.io.stdoutIsTTY || ctx.settings.out !== undefined);
  if (exact || !machine) return { after: () => text };
  return {
    finish: () => {
      throw new FailureError(`${text}; exit 1 so that a script does not take this page for the whole list`);
    },
  };
}

/** With --all, from/to bound the walk itself, so a value that is not Unix seconds cannot pass unread. */
function numberOr(v: string | undefined, key: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`-F ${key}=${v}: with --all, ${key} must be Unix seconds`);
  return Number(v);
}

/**
 * A capture whose answer was lost is read back, as `payments capture` does: captured means done.
 * Anything else stays unknown, with the command that shows it.
 */
async function reconcileCapture(ctx: Context, path: string, body: unknown, err: OutcomeUnknownError): Promise<unknown> {
  const m = /^\/payments\/([^/]+)\/capture$/.exec(path);
  if (m) {
    const api = await ctx.api();
    const payment = await api.request<Record<string, unknown>>('GET', `/payments/${m[1]}`).catch(() => undefined);
    if (payment && isCaptured(payment)) {
      ctx.notice(`the capture's answer was lost; read back from the service: ${decodeURIComponent(m[1]!)} is captured`);
      return payment;
    }
  }
  const refund = /\/refund$/.test(path) ? ' and compare amount_refunded with what it was before' : '';
  throw withCheck(err, 'POST', path, body, refund, ctx.settings);
}
