import type { Store } from './store';

/** The service charge on a captured amount, in percent, when `sandbox start --fee-rate` never set one. */
export const DEFAULT_FEE_RATE = 2;
/** GST on the service charge, in percent. */
const GST_PERCENT = 18;

/** A rate as basis points (2.5% = 250), so the arithmetic below stays in integers. */
const basisPoints = (percent: number) => Math.round(percent * 100);

/** `n * num / den` rounded half up, for non-negative integers. */
const roundedShare = (n: number, num: number, den: number) => Math.floor((n * num * 2 + den) / (den * 2));

/**
 * A captured payment's `fee` (the charge including GST) and `tax` (the GST part), in paise: the charge
 * is `percent` of the amount rounded half up to the paisa, GST is 18% of the charge rounded half up,
 * and the fee is their sum. ₹1,000.00 at 2%: charge 2000, tax 360, fee 2360.
 */
export function feeOf(amount: number, percent: number): { fee: number; tax: number } {
  const charge = roundedShare(amount, basisPoints(percent), 10_000);
  const tax = roundedShare(charge, GST_PERCENT, 100);
  return { fee: charge + tax, tax };
}

/** The rate this database charges: the one `sandbox start --fee-rate` kept, else the default. */
export function feeRate(store: Store): number {
  const text = store.meta('fee_rate');
  const kept = Number(text);
  return text !== undefined && Number.isFinite(kept) ? kept : DEFAULT_FEE_RATE;
}

/** Keeps `--fee-rate` in the database, so every process on the file charges the same. */
export function keepFeeRate(store: Store, percent: number | undefined): void {
  if (percent !== undefined) store.tx(() => store.setMeta('fee_rate', String(percent)));
}
