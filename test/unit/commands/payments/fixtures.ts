import type { RefundPaymentsOptions } from '../../../../src/commands/payments/refund';
import type { CommandResult } from '../../../../src/commands/result';

/** A payment record as the service answers it. */
export const payment = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  entity: 'payment',
  amount: 50000,
  currency: 'INR',
  status: 'captured',
  captured: true,
  amount_refunded: 0,
  method: 'card',
  email: 'a@example.com',
  notes: [],
  created_at: 1_790_000_000,
  ...fields,
});

export const refund = (id: string, paymentId: string, amount: number) => ({
  id,
  entity: 'refund',
  amount,
  currency: 'INR',
  payment_id: paymentId,
  status: 'processed',
  notes: [],
  created_at: 1_790_000_100,
});

/** The rows of a `many` result, in order. */
export async function rowsOf(result: CommandResult): Promise<unknown[]> {
  if (result.type !== 'many') throw new Error(`expected rows, got ${result.type}`);
  const rows: unknown[] = [];
  for await (const row of result.items) rows.push(row);
  return rows;
}

export const PAY = 'pay_29QQoUBi66xm2f';
export const PAY2 = 'pay_29QQoUBi66xm2g';

/** A refund run's flags as the command gives them when none is set. */
export const noRefundFlags = { notes: [], retryUnknown: false, newRun: false, recheck: false, skipInvalid: false };

/** A bulk refund of PAY and PAY2 with no flag set, then `o` over it. */
export const bulkRefund = (o: Partial<RefundPaymentsOptions> = {}): RefundPaymentsOptions => ({
  ids: [PAY, PAY2],
  ...noRefundFlags,
  ...o,
});

/** The credentials of a live profile named prod. */
export const liveProfile = async () => ({
  keyId: 'rzp_live_unit',
  keySecret: 's',
  baseUrl: 'http://127.0.0.1:9/v1',
  live: true,
  source: 'profile prod',
});
