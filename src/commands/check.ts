import type { ApiClient, Prepared } from '../client/client';
import type { ResourceKind } from '../output/columns';
import type { Context } from './context';
import { one } from './result';
import type { CommandResult } from './result';
import { FindingError, OutcomeUnknownError } from '../contract/errors';
import { endpoints } from '../contract/endpoints';
import { matchPath } from '../contract/paths';
import { identityProblem } from '../contract/rules';
import type { Pacer } from '../client/http';
import { idArg } from './flags';
import { printed } from './invocation';
import type { Invocation } from './invocation';

/**
 * The payctl command that shows whether a write whose answer was lost was applied, for the message of
 * exit 6: the resource it changed, or the list it would have added to. `inv`: the invocation whose
 * service and zone it names (see invocation.ts).
 */
export function checkCommand(method: string, path: string, body?: unknown, inv?: Invocation): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const at = (pattern: string) => matchPath(pattern, path);
  const show = (args: string[], window = false) => printed(inv, args, { window });
  let m: Record<string, string> | null;
  if ((m = at('/payments/:id/refund'))) return show(['payments', 'get', m.id!]);
  if ((m = at('/payments/:id/capture')) || (m = at('/payments/:id/transfers'))) return show(['payments', 'get', m.id!]);
  if (
    (m = at('/subscriptions/:id/cancel')) ||
    (m = at('/subscriptions/:id/pause')) ||
    (m = at('/subscriptions/:id/resume'))
  )
    return show(['subscriptions', 'get', m.id!]);
  if ((m = at('/customers/:id'))) return show(['customers', 'get', m.id!]);
  if (path === '/customers') return show(['customers', 'list', '--count', '5']);
  if ((m = at('/customers/:id/payouts'))) return show(['wallet', 'statement', m.id!, '--from', 'today'], true);
  if (path === '/transfers' && typeof b.customer_id === 'string')
    return show(['wallet', 'statement', b.customer_id, '--from', 'today'], true);
  // A notes edit (PATCH): the record it changed.
  if (method === 'PATCH' && (m = at('/orders/:id'))) return show(['orders', 'get', m.id!]);
  if (method === 'PATCH' && (m = at('/payments/:id'))) return show(['payments', 'get', m.id!]);
  if (method === 'PATCH' && (m = at('/refunds/:id'))) return show(['refunds', 'get', m.id!]);
  if (path === '/orders')
    return typeof b.receipt === 'string'
      ? show(['orders', 'list', '--receipt', b.receipt, '--from', '1h'], true)
      : show(['orders', 'list', '--from', '1h'], true);
  if (method === 'GET') return show(['api', 'GET', path]);
  // A POST that creates something: the list it would have joined, newest first.
  return show(['api', 'GET', path, '-F', 'count=5']);
}

/** A lost answer's hint, with the command to run instead of "check the resource". */
export function withCheck(
  err: OutcomeUnknownError,
  method: string,
  path: string,
  body?: unknown,
  extra = '',
  inv?: Invocation,
): OutcomeUnknownError {
  return new OutcomeUnknownError(
    err.message,
    `do not send it again before checking: run \`${checkCommand(method, path, body, inv)}\`${extra}`,
    err.answer,
  );
}

/** Sends one prepared write; an unknown outcome names the command that shows what happened. */
export async function sendOnce<T = Record<string, unknown>>(
  api: ApiClient,
  req: Prepared,
  inv?: Invocation,
): Promise<T> {
  try {
    return await api.execute<T>(req);
  } catch (err) {
    if (err instanceof OutcomeUnknownError && req.method !== 'GET')
      throw withCheck(err, req.method, req.path, req.body, '', inv);
    throw err;
  }
}

/** The id a read asks for: the last segment of its path, when the endpoint's path ends in its record's id. */
function askedId(req: Prepared): string | undefined {
  const pattern = (endpoints as Record<string, { path: string } | undefined>)[req.endpoint]?.path;
  if (req.method !== 'GET' || !pattern || !/\/:\w+$/.test(pattern)) return undefined;
  return decodeURIComponent(req.path.slice(req.path.lastIndexOf('/') + 1));
}

/**
 * One record read by its id: the record of that id (its entity is the response schema's), or a
 * FindingError (exit 1) when the service answered with another.
 */
export async function readRecord<T = Record<string, unknown>>(
  api: ApiClient,
  req: Prepared,
  pacer?: Pacer,
): Promise<T> {
  const value = await api.execute<T>(req, pacer);
  const asked = askedId(req);
  const problem = asked === undefined ? undefined : identityProblem(value, asked);
  if (problem) throw new FindingError(problem);
  return value;
}

/** What --dry-run prints instead of sending: the validated requests. */
export const dryRun = (...requests: Prepared[]): CommandResult => ({ type: 'dry-run', requests });

/**
 * One request whose answer is one record of `kind`: printed instead with --dry-run; a write is sent
 * once (see sendOnce), a read as usual.
 */
export async function sendOrShow(
  ctx: Context,
  api: ApiClient,
  req: Prepared,
  kind: ResourceKind,
): Promise<CommandResult> {
  if (ctx.settings.dryRun) return dryRun(req);
  return one(kind, req.method !== 'GET' ? await sendOnce(api, req, ctx.settings) : await readRecord(api, req));
}

/** One record read by its id (`payments get ID`): its answer, or with --dry-run the request. */
export async function readById(
  ctx: Context,
  name: 'getPayment' | 'getRefund' | 'getOrder',
  kind: 'payment' | 'refund' | 'order',
  raw: string | undefined,
): Promise<CommandResult> {
  const id = idArg(raw, kind);
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare(name, { params: { id } }), kind);
}
