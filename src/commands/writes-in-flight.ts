import { matchPath } from '../contract/paths';
import { checkCommand } from './check-command';
import { printed } from './invocation';
import type { Invocation } from './invocation';

interface Write {
  path: string;
  body: unknown;
  at: number;
}

/**
 * The command that shows whether an interrupted write was applied. Unlike check.ts's rule for a lost
 * answer, it knows when the request left, so lists start a minute before that instead of "1h", and a
 * payment shows just the fields the write would have changed.
 */
function interruptedCheck(w: Write, inv: Invocation | undefined): string {
  const body = (w.body && typeof w.body === 'object' ? w.body : {}) as Record<string, unknown>;
  const show = (args: string[], window = false) => printed(inv, args, { window });
  const refund = matchPath('/payments/:id/refund', w.path);
  if (refund) return show(['payments', 'get', refund.id!, '--fields', 'id,amount,amount_refunded,refund_status']);
  const capture = matchPath('/payments/:id/capture', w.path);
  if (capture) return show(['payments', 'get', capture.id!, '--fields', 'id,status,amount']);
  const since = new Date(w.at - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  if (w.path === '/orders') {
    const receipt = typeof body.receipt === 'string' ? ['--receipt', body.receipt] : [];
    return show(['orders', 'list', '--from', since, ...receipt], true);
  }
  const payout = matchPath('/customers/:id/payouts', w.path);
  if (payout) return show(['wallet', 'statement', payout.id!, '--from', since], true);
  if (w.path === '/transfers' && typeof body.customer_id === 'string')
    return show(['wallet', 'statement', body.customer_id, '--from', since], true);
  // Everything else (payment transfers, cancels, fund accounts, any `payctl api` path): the same
  // command a lost answer names.
  return checkCommand('POST', w.path, w.body, inv);
}

/**
 * Writes (POSTs) of a single command that are on the wire. If the user interrupts while one is, the
 * answer that would have said whether it was applied is given up: say so, with the command to check.
 */
export class WritesInFlight {
  private readonly open = new Set<Write>();
  /** The invocation the writes belong to, once its settings are known: the checks name its service. */
  invocation?: Invocation;

  start(path: string, body: unknown): () => void {
    const w = { path, body, at: Date.now() };
    this.open.add(w);
    return () => this.open.delete(w);
  }

  onInterrupt(stderr: NodeJS.WritableStream) {
    for (const w of this.open)
      stderr.write(
        `payctl: interrupted after the request was sent: it may have been applied; ` +
          `check with \`${interruptedCheck(w, this.invocation)}\` before trying again\n`,
      );
  }
}
