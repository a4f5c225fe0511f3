/** Rules derived from a payment's fields, written once for the client, bulk runs and the sandbox. */

interface PaymentFigures {
  status?: unknown;
  captured?: unknown;
  amount?: unknown;
  amount_refunded?: unknown;
}

/**
 * The money was taken: status `captured`, or `refunded` after a capture (a refund of an authorized
 * payment that was never captured, e.g. by the capture window, leaves `captured` false).
 */
export const isCaptured = (p: PaymentFigures): boolean =>
  p.status === 'captured' || (p.status === 'refunded' && p.captured === true);

/** An amount as the service sends it (a number, or a string of digits on some payloads); undefined if neither. */
export const amountOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
};

/** What can still be refunded, in the smallest currency unit (a missing figure counts as 0). */
export const refundable = (p: PaymentFigures): number => (amountOf(p.amount) ?? 0) - (amountOf(p.amount_refunded) ?? 0);
