import type { ApiClient } from './client';
import { ApiError, OutcomeUnknownError } from '../contract/errors';
import { isCaptured, paymentProblem } from '../contract/rules';

interface CaptureOutcome {
  payment: Record<string, unknown>;
  /** True when the answer was lost and the result was read back from the payment. */
  reconciled: boolean;
}

/**
 * Captures once, and when the answer is lost (timeout, reset, 5xx) reads the payment back instead of
 * guessing: `captured` means done; still `authorized` means the capture was not applied, so it is sent
 * again — safe, because the service refuses to capture a payment twice.
 */
export async function captureSafely(
  api: ApiClient,
  id: string,
  amount: number,
  currency: string,
  rounds = 3,
): Promise<CaptureOutcome> {
  // An answer that is not this payment, captured (another payment's record, figures that cannot be
  // used) is not taken as the outcome: it is read back like a lost answer.
  const check = `run \`payctl payments get ${id}\` to see whether it is captured`;
  const send = async () => {
    const payment = await api.call<Record<string, unknown>>('capturePayment', {
      params: { id },
      body: { amount, currency },
    });
    const problem =
      paymentProblem(payment, id) ?? (isCaptured(payment) ? undefined : `status ${String(payment.status)}`);
    if (problem)
      throw new OutcomeUnknownError(
        `the answer to the capture of ${id} is not that payment, captured (${problem})`,
        check,
      );
    return payment;
  };
  try {
    return { payment: await send(), reconciled: false };
  } catch (err) {
    if (!(err instanceof OutcomeUnknownError)) throw err;
    const unknown = new OutcomeUnknownError(err.message, check);
    for (let round = 0; round < rounds; round++) {
      let payment: Record<string, unknown>;
      try {
        payment = await api.call<Record<string, unknown>>('getPayment', { params: { id } });
      } catch {
        throw unknown; // could not read it back: still unknown, never assumed either way
      }
      if (paymentProblem(payment, id)) throw unknown; // another payment's record, or figures that cannot be used
      if (isCaptured(payment)) return { payment, reconciled: true };
      if (payment.status !== 'authorized') throw unknown;
      try {
        return { payment: await send(), reconciled: true };
      } catch (again) {
        if (!(again instanceof OutcomeUnknownError) && !(again instanceof ApiError)) throw again;
      }
    }
    throw unknown;
  }
}
