import { refundPayments } from '../../src/commands/payments/refund';
import type { Context } from '../../src/commands/context';
import type { CommandResult } from '../../src/commands/result';
import type { SimDisk } from './disk';
import type { Process } from './network';

/** Gives a process the machine's simulated disk (its journals) and the simulated clock. */
export function bindDisk(_ctx: Context, _disk: SimDisk, _proc: Process): void {}

/** `payctl payments refund ID [--amount N] [--idempotency-key K] --yes`. */
export function singleRefund(
  ctx: Context,
  id: string,
  amount: number | undefined,
  _key: string | undefined,
): Promise<CommandResult> {
  return refundPayments(
    {
      ids: [id],
      amount: amount === undefined ? undefined : String(amount),
      notes: [],
      retryUnknown: false,
      newRun: false,
      recheck: false,
      skipInvalid: false,
    },
    ctx,
  );
}
