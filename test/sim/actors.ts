import type { Rng } from './rng';
import type { SimService } from './service';
import type { World } from './world';

/** Another operator refunds the same payments now and then: sometimes the very amount payctl will. */
export function scheduleOtherOperator(
  world: World,
  service: SimService,
  rng: Rng,
  ids: string[],
  amounts: Map<string, number | undefined>,
) {
  const count = rng.int(1, 3);
  for (let i = 0; i < count; i++) {
    const id = rng.pick(ids);
    const many = rng.chance(0.15); // a dozen small refunds: more than one page of the refund list
    world.at(rng.int(0, 60_000), () => {
      const p = service.payments.get(id)!;
      for (let n = 0; n < (many ? 12 : 1); n++) {
        const left = p.amount - p.amount_refunded;
        if (left <= 0) return;
        const same = amounts.get(id);
        const amount = many
          ? Math.min(left, 100)
          : same !== undefined && same <= left && rng.chance(0.5)
            ? same
            : rng.int(1, left);
        service.arrive(
          { method: 'POST', path: `/payments/${id}/refund`, body: { amount }, actor: 'other' },
          () => undefined,
        );
      }
    });
  }
}

/**
 * A colleague who sees a bulk run end incomplete (or die) and finishes some of its rows by hand: the
 * very amount the row meant (or all that remains), from the dashboard, with no key. A resume must not
 * take that refund for its own. Returns the payments refunded, for the trace.
 */
export function colleagueFinishes(
  service: SimService,
  rng: Rng,
  rows: string[],
  amounts: Map<string, number | undefined>,
): string[] {
  const refunded: string[] = [];
  for (const id of rows) {
    if (!rng.chance(0.5)) continue;
    const p = service.payments.get(id)!;
    const left = p.amount - p.amount_refunded;
    const amount = amounts.get(id) ?? left;
    if (amount <= 0 || amount > left) continue;
    service.arrive(
      { method: 'POST', path: `/payments/${id}/refund`, body: { amount }, actor: 'other' },
      () => undefined,
    );
    refunded.push(`${id.slice(-3)} ${amount}`);
  }
  return refunded;
}

/**
 * An answer mangled on its way: a payment read with a negative or fractional figure, or another
 * payment's record; a refund's answer naming another payment's refund with twice the amount.
 */
export function mangle(rng: Rng, body: Record<string, unknown>, service: SimService): Record<string, unknown> {
  if (body.entity === 'refund') {
    const other = [...service.payments.values()].find((p) => p.id !== body.payment_id);
    return {
      ...body,
      id: `rfnd_FORGED${String(rng.int(0, 999_999)).padStart(6, '0')}`,
      payment_id: other?.id ?? 'pay_SOMEONEELSE01',
      amount: Number(body.amount) * 2,
    };
  }
  if (body.entity !== 'payment') return body;
  const amount = Number(body.amount);
  switch (rng.pick(['negative', 'fraction', 'other_id', 'over'] as const)) {
    case 'negative':
      return { ...body, amount_refunded: -2 * amount };
    case 'fraction':
      return { ...body, amount_refunded: Number(body.amount_refunded) + 0.5 };
    case 'over':
      return { ...body, amount_refunded: amount + 100 };
    default: {
      const other = [...service.payments.values()].find((p) => p.id !== body.id);
      return other ? { ...service.paymentJson(other), amount: other.amount * 3 } : { ...body, id: 'pay_SOMEONEELSE01' };
    }
  }
}
