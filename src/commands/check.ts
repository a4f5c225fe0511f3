import type { ApiClient, Prepared } from '../client/client';
import type { ResourceKind } from '../output/columns';
import type { Context } from './context';
import { one } from './result';
import type { CommandResult } from './result';
import { FindingError, OutcomeUnknownError } from '../contract/errors';
import { withCheck } from './check-command';
import { endpoints } from '../contract/endpoints';
import { identityProblem } from '../contract/rules';
import type { Pacer } from '../client/http';
import { idArg } from './flags';
import type { Invocation } from './invocation';

export { checkCommand, withCheck } from './check-command';

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
