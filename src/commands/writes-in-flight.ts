import { matchPath } from '../contract/paths';
import { checkCommand } from './check';

interface Write {
  path: string;
  body: unknown;
  at: number;
}

const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command that shows whether an interrupted write was applied. Unlike check.ts's rule for a lost
 * answer, it knows when the request left, so lists start a minute before that instead of "1h", and a
 * payment shows just the fields the write would have changed.
 */
function interruptedCheck(w: Write): string {
  const body = (w.body && typeof w.body === 'object' ? w.body : {}) as Record<string, unknown>;
  const refund = matchPath('/payments/:id/refund', w.path);
  if (refund) return `payctl payments get ${refund.id} --fields id,amount,amount_refunded,refund_status`;
  const capture = matchPath('/payments/:id/capture', w.path);
  if (capture) return `payctl payments get ${capture.id} --fields id,status,amount`;
  const since = new Date(w.at - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  if (w.path === '/orders') {
    const receipt = typeof body.receipt === 'string' ? ` --receipt ${quoted(body.receipt)}` : '';
    return `payctl orders list --from ${since}${receipt}`;
  }
  const payout = matchPath('/customers/:id/payouts', w.path);
  if (payout) return `payctl wallet statement ${payout.id} --from ${since}`;
  if (w.path === '/transfers' && typeof body.customer_id === 'string')
    return `payctl wallet statement ${body.customer_id} --from ${since}`;
  // Everything else (payment transfers, cancels, fund accounts, any `payctl api` path): the same
  // command a lost answer names.
  return checkCommand('POST', w.path, w.body);
}

/**
 * Writes (POSTs) of a single command that are on the wire. If the user interrupts while one is, the
 * answer that would have said whether it was applied is given up: say so, with the command to check.
 */
export class WritesInFlight {
  private readonly open = new Set<Write>();

  start(path: string, body: unknown): () => void {
    const w = { path, body, at: Date.now() };
    this.open.add(w);
    return () => this.open.delete(w);
  }

  onInterrupt(stderr: NodeJS.WritableStream) {
    for (const w of this.open)
      stderr.write(
        `payctl: interrupted after the request was sent: it may have been applied; ` +
          `check with \`${interruptedCheck(w)}\` before trying again\n`,
      );
  }
}
