import { OutcomeUnknownError } from '../contract/errors';
import { matchPath } from '../contract/paths';
import { printed } from './invocation';
import type { Invocation } from './invocation';

// Apart from the reads in ./check.ts: every run loads this (writes in flight name their check), and it
// must not bring the contract's schemas with it.

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
