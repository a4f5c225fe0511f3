import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/client';
import type { Transport } from '../../../src/client/client';
import type { HttpRequest } from '../../../src/client/http';
import { decideRefund, findRefund, notesWithKey, resendWaitMs } from '../../../src/client/refund';
import type { RefundEvidence, RefundStage } from '../../../src/client/refund';
import { paymentProblem, refundAnswerProblem } from '../../../src/contract/rules';

const found: RefundEvidence = { kind: 'found', refundId: 'rfnd_1', amount: 700 };
const foundFailed: RefundEvidence = { ...found, failed: true };
const absent: RefundEvidence = { kind: 'absent' };
const noList: RefundEvidence = { kind: 'no_list' };
const unreadable: RefundEvidence = { kind: 'unreadable', reason: 'timed out' };
const noPayment: RefundEvidence = { kind: 'no_payment', why: 'no such payment; nothing was sent' };
const delta = (before: number, after: number): RefundEvidence => ({
  kind: 'no_list',
  delta: { before, after, amount: 700 },
});

describe('decideRefund: the one table of a refund whose outcome its own answer did not give', () => {
  it.each<[RefundStage, RefundEvidence, boolean, string]>([
    // Our key in the payment's refunds: applied once, whatever the stage.
    ['fresh', found, false, 'done'],
    ['resume', found, false, 'done'],
    ['lost', found, false, 'done'],
    // Our key on a refund that failed at the service: applied, then undone. Not done, and the same key
    // only answers that failed refund again, so it fails (a retry takes a new key).
    ['fresh', foundFailed, false, 'fail'],
    ['resume', foundFailed, true, 'fail'],
    ['lost', foundFailed, false, 'fail'],
    // Read whole, our key absent.
    ['fresh', absent, false, 'send'],
    ['resume', absent, false, 'send'], // same key: a service honouring it returns the first refund or 409
    ['lost', absent, false, 'unknown'], // the request may still land: never "not applied"
    ['lost', absent, true, 'unknown'],
    // Nothing readable.
    ['fresh', unreadable, false, 'unknown'], // nothing sent now, yet another machine may have made it
    ['resume', unreadable, true, 'unknown'],
    ['lost', unreadable, false, 'unknown'],
    // The service's own error object says the payment does not exist: nothing can have been applied.
    ['fresh', noPayment, false, 'fail'],
    ['resume', noPayment, true, 'fail'],
    ['lost', noPayment, false, 'fail'],
    // No list at the service: deltas against the reading just before this very send.
    ['fresh', noList, false, 'send'],
    ['resume', noList, false, 'unknown'], // the first run's old baseline is never used
    ['resume', noList, true, 'send'],
    ['lost', noList, false, 'unknown'], // could not read back
    ['lost', delta(0, 700), false, 'done'],
    ['lost', delta(500, 1200), false, 'done'],
    ['lost', delta(500, 500), false, 'unknown'], // unchanged after a timeout: unknown, not "not applied"
    ['lost', delta(0, 1400), false, 'unknown'], // twice, or someone else's refund too
    ['lost', delta(0, 300), false, 'unknown'],
  ])('%s, %j, retryUnknown %s -> %s', (stage, evidence, retry, action) => {
    expect(decideRefund(stage, evidence, retry).action).toBe(action);
  });

  it('a failed refund names the refund, and never reads as applied', () => {
    const d = decideRefund('resume', foundFailed);
    expect(d).toMatchObject({ action: 'fail', refundId: 'rfnd_1' });
    expect(d.why).toMatch(/rfnd_1 carrying our key failed at the service/);
  });

  it('no case of the table ever answers "not applied"', () => {
    for (const stage of ['fresh', 'resume', 'lost'] as const)
      for (const e of [found, absent, noList, unreadable, delta(1, 1)])
        expect(JSON.stringify(decideRefund(stage, e))).not.toMatch(/not applied|safe to run/);
  });
});

/** An ApiClient over a fake transport answering GET /payments/:id/refunds with the pages given. */
function listing(answer: (req: HttpRequest) => { status: number; body: unknown }) {
  const transport: Transport = {
    url: ({ path }) => `http://127.0.0.1:1/v1${path}`,
    send: async (req) => {
      const { status, body } = answer(req);
      return { status, headers: {}, text: JSON.stringify(body), attempts: 1 };
    },
  };
  return new ApiClient(transport);
}
const refund = (id: string, key?: string, status = 'processed') => ({
  id,
  entity: 'refund',
  amount: 700,
  payment_id: 'pay_1',
  status,
  notes: key ? { payctl_key: key } : {},
});

describe('resendWaitMs: no resend while the earlier request may still arrive', () => {
  const sent = { sentAtMs: 1_000_000, deadlineMs: 30_000 };
  it('waits twice the deadline from the send, then lets it go; nothing recorded waits nothing', () => {
    expect(resendWaitMs(sent, 1_000_000)).toBe(60_000);
    expect(resendWaitMs(sent, 1_059_999)).toBe(1);
    expect(resendWaitMs(sent, 1_060_000)).toBe(0);
    expect(resendWaitMs(undefined, 5)).toBe(0);
  });
  it('turns only a resend into a wait: found, lost and fresh decisions are unchanged', () => {
    expect(decideRefund('resume', absent, false, 5_000)).toMatchObject({ action: 'wait', waitMs: 5_000 });
    expect(decideRefund('resume', noList, true, 5_000)).toMatchObject({
      action: 'wait',
      why: 'the service lists no refunds of a payment, but the earlier request may still arrive for 5 s more: nothing is sent again before then',
    });
    expect(decideRefund('resume', found, false, 5_000).action).toBe('done');
    expect(decideRefund('lost', absent, false, 5_000).action).toBe('unknown');
    expect(decideRefund('fresh', absent, false, 5_000).action).toBe('send');
    expect(decideRefund('resume', absent, false, 5_000).why).toMatch(/may still arrive for 5 s more/);
  });
});

describe('findRefund looks for our key in the payment refunds', () => {
  it('finds it on a later page', async () => {
    const api = listing((req) => {
      const skip = Number(req.query?.skip);
      const items = skip === 0 ? Array.from({ length: 100 }, (_, i) => refund(`rfnd_${i}`)) : [refund('rfnd_x', 'K')];
      return { status: 200, body: { entity: 'collection', count: items.length, items } };
    });
    expect(await findRefund(api, 'pay_1', 'K')).toEqual({ kind: 'found', refundId: 'rfnd_x', amount: 700 });
  });
  it('an equal refund of another operator is not ours', async () => {
    const api = listing(() => ({
      status: 200,
      body: { entity: 'collection', count: 1, items: [refund('r', 'other')] },
    }));
    expect(await findRefund(api, 'pay_1', 'K')).toEqual({ kind: 'absent' });
  });
  it('a failed refund with our key is found as failed, unless another refund carries the key too', async () => {
    const pages = (items: unknown[]) => listing(() => ({ status: 200, body: { entity: 'collection', items } }));
    expect(await findRefund(pages([refund('r1', 'K', 'failed'), refund('r2')]), 'pay_1', 'K')).toEqual({
      kind: 'found',
      refundId: 'r1',
      amount: 700,
      failed: true,
    });
    // A service that ignores the header may hold a failed one and a later processed one: the processed one counts.
    const both = pages([refund('r1', 'K', 'failed'), refund('r2', 'K', 'processed')]);
    expect(await findRefund(both, 'pay_1', 'K')).toEqual({ kind: 'found', refundId: 'r2', amount: 700 });
  });
  it('404: the service has no list', async () => {
    const api = listing(() => ({
      status: 404,
      body: { error: { code: 'BAD_REQUEST_ERROR', description: 'no route' } },
    }));
    expect((await findRefund(api, 'pay_1', 'K')).kind).toBe('no_list');
  });
  it("the service's real 400 for an unknown id: no such payment; the same words in a 2xx or of another field are not", async () => {
    const real = JSON.parse(
      readFileSync(new URL('../../fixtures/real/error_bad_request.json', import.meta.url), 'utf8'),
    );
    expect(
      await findRefund(
        listing(() => ({ status: 400, body: real })),
        'pay_1',
        'K',
      ),
    ).toEqual({
      kind: 'no_payment',
      why: 'no such payment; nothing was sent',
    });
    const inA200 = listing(() => ({ status: 200, body: real }));
    expect((await findRefund(inA200, 'pay_1', 'K')).kind).toBe('unreadable');
    const otherField = { error: { ...real.error, field: 'customer_id' } };
    expect(
      (
        await findRefund(
          listing(() => ({ status: 400, body: otherField })),
          'pay_1',
          'K',
        )
      ).kind,
    ).toBe('unreadable');
  });
  it('a refund of another payment in the list, or a hostile amount: unreadable', async () => {
    const other = listing(() => ({
      status: 200,
      body: { entity: 'collection', count: 1, items: [{ ...refund('r', 'K'), payment_id: 'pay_2' }] },
    }));
    expect((await findRefund(other, 'pay_1', 'K')).kind).toBe('unreadable');
    const hostile = listing(() => ({
      status: 200,
      body: { entity: 'collection', count: 1, items: [{ ...refund('r', 'K'), amount: -5 }] },
    }));
    expect((await findRefund(hostile, 'pay_1', 'K')).kind).toBe('unreadable');
  });
});

describe('the key note', () => {
  it('is added to the notes, and 15 notes of the user leave no room (exit 2)', () => {
    expect(notesWithKey({ a: '1' }, 'K')).toEqual({ a: '1', payctl_key: 'K' });
    const full = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, 'v']));
    expect(() => notesWithKey(full, 'K')).toThrow(/at most 15 notes/);
    expect(() => notesWithKey({ payctl_key: 'x' }, 'K')).toThrow(/payctl's own/);
  });
});

describe('paymentProblem: service data checked before money arithmetic', () => {
  const ok = { id: 'pay_1', amount: 1000, amount_refunded: 200 };
  it.each([
    [{ ...ok }, undefined],
    [{ ...ok, amount_refunded: '200' }, undefined],
    [{ ...ok, amount_refunded: -100 }, /amount_refunded is -100/],
    [{ ...ok, amount: 1000.5 }, /amount is 1000.5/],
    [{ ...ok, amount_refunded: 1001 }, /more than its amount/],
    [{ ...ok, id: 'pay_2' }, /id "pay_2" when asked for pay_1/],
    [{ ...ok, amount: undefined }, /amount is missing/],
  ])('%j', (p, problem) => {
    const got = paymentProblem(p, 'pay_1');
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(problem);
  });
});

describe('refundAnswerProblem: a refund is recorded only from an answer that is the refund sent', () => {
  const ok = { id: 'rfnd_1', entity: 'refund', payment_id: 'pay_1', amount: 700 };
  it.each([
    [{ ...ok }, undefined],
    [{ ...ok, amount: '700' }, undefined],
    [{ ...ok, payment_id: 'pay_2' }, /refund rfnd_1 of payment "pay_2", not of pay_1/],
    [{ ...ok, amount: 1400 }, /refund rfnd_1 of 1400, not of the 700 sent/],
    [{ ...ok, id: '' }, /has id ""/],
    [null, /the answer is null/],
  ])('%j', (r, problem) => {
    const got = refundAnswerProblem(r, 'pay_1', 700);
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(problem);
  });
});
