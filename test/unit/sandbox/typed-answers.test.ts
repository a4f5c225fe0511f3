import { describe, expect, it } from 'vitest';
import type { RouteHandler } from '../../../src/sandbox/context';
import { KINDS, kindOfPrefix } from '../../../src/contract/kinds';
import { parseId } from '../../../src/contract/values/id';
import { operationOf } from '../../../src/cli/refusal';

// Typecheck (`tsc`, run with the tests) holds these: a route answering what its endpoint's schema does not
// read does not compile.
const answer = { id: 'pay_1', entity: 'payment', currency: 'INR', status: 'captured', created_at: 1 } as const;
// @ts-expect-error a payment's amount is a number (or digit string), never a boolean
export const wrongAmount: RouteHandler<'getPayment'> = () => ({ ...answer, amount: true });
// @ts-expect-error the answer of a refund read is a refund
export const wrongEntity: RouteHandler<'getRefund'> = () => ({ ...answer, amount: 1, payment_id: 'pay_1' });
// @ts-expect-error a list answers a collection
export const notACollection: RouteHandler<'listPayments'> = () => ({ ...answer, amount: 1 });
export const right: RouteHandler<'getPayment'> = () => ({ ...answer, amount: 100 });

describe('an id prefix is declared once, with its kind', () => {
  it('checks ids, names records in refusals and finds the kind of a prefix from the declarations', () => {
    for (const [kind, d] of Object.entries(KINDS)) {
      if (!d.idPrefix) continue;
      expect(kindOfPrefix(d.idPrefix)).toBe(kind);
      expect(parseId(`${d.idPrefix}_AbC123`, kind as never)).toEqual({ ok: true, value: `${d.idPrefix}_AbC123` });
      expect(operationOf(`GET http://h/v1/x/${d.idPrefix}_AbC123`)?.phrase).toBe(
        `read ${kind.replace(/_/g, ' ')} ${d.idPrefix}_AbC123`,
      );
    }
    expect(parseId('pay_1', 'refund')).toMatchObject({ ok: false, error: expect.stringContaining('rfnd_XXXX') });
  });
});
