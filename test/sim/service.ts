import type { Rng } from './rng';
import type { World } from './world';

/** Who sent a request: payctl (some process of the scenario) or another operator at the same account. */
export type Actor = 'payctl' | 'other';

export interface SimPayment {
  id: string;
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'refunded';
  amount_refunded: number;
  created_at: number;
}

export interface SimRefund {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  notes: Record<string, string>;
  receipt?: string;
  key?: string;
  actor: Actor;
  /** The send that made it (payctl's sends are numbered per scenario). */
  sendId?: number;
  created_at: number;
}

export interface Answer {
  status: number;
  body: unknown;
}

export interface Arrival {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  key?: string;
  actor: Actor;
  sendId?: number;
}

interface Keyed {
  body: string;
  refund?: SimRefund;
  processing: boolean;
}

export interface ServiceOptions {
  /** The service honours X-Refund-Idempotency (the real one documents it; the seed service does not). */
  idempotency: boolean;
  /** GET /payments/:id/refunds exists. */
  refundList: boolean;
  /** How long the service takes to apply a write (a long one leaves a window where a replay gets 409). */
  processingMs: () => number;
}

const error = (status: number, code: string, description: string, field?: string): Answer => ({
  status,
  body: {
    error: {
      code,
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      field,
    },
  },
});

/** A request's identity under a key: its payment and body, whatever the order of the body's keys. */
const canonical = (value: unknown): string =>
  value === null || typeof value !== 'object'
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : `{${Object.entries(value)
          .filter(([, v]) => v !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
          .join(',')}}`;

/** How the service opens each entity that moves money: its id, kind, amount and currency. */
const moneyEntity = (entity: 'payment' | 'refund', e: { id: string; amount: number; currency: string }) => ({
  id: e.id,
  entity,
  amount: e.amount,
  currency: e.currency,
});

const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** The payments service in memory, with the rules of the spec and of the documented idempotency header. */
export class SimService {
  readonly payments = new Map<string, SimPayment>();
  readonly refunds: SimRefund[] = [];
  private readonly keys = new Map<string, Keyed>();
  private refundSeq = 0;
  /** Payctl's refund sends being processed right now: they may still apply. */
  readonly processing = new Set<number>();

  constructor(
    private readonly world: World,
    readonly opts: ServiceOptions,
  ) {}

  addPayment(p: Omit<SimPayment, 'created_at'>): SimPayment {
    const payment = { ...p, created_at: Math.floor(this.world.now / 1000) };
    this.payments.set(p.id, payment);
    return payment;
  }

  paymentJson(p: SimPayment): Record<string, unknown> {
    return {
      ...moneyEntity('payment', p),
      status: p.status,
      captured: p.status !== 'authorized',
      amount_refunded: p.amount_refunded,
      refund_status: p.amount_refunded === 0 ? null : p.amount_refunded === p.amount ? 'full' : 'partial',
      method: 'card',
      notes: [],
      created_at: p.created_at,
    };
  }

  refundJson(r: SimRefund): Record<string, unknown> {
    return {
      ...moneyEntity('refund', r),
      payment_id: r.payment_id,
      notes: r.notes,
      receipt: r.receipt ?? null,
      status: 'processed',
      created_at: Math.floor(this.world.now / 1000),
    };
  }

  refundsOf(paymentId: string, actor?: Actor): SimRefund[] {
    return this.refunds.filter((r) => r.payment_id === paymentId && (actor === undefined || r.actor === actor));
  }

  log: (line: string) => void = () => undefined;

  /** Hears every request as it arrives (the simulation's invariants look at what payctl sent). */
  onArrival: ((req: Arrival) => void) | undefined;

  /** A request arrives; `respond` is called once the service has an answer (maybe after processing). */
  arrive(req: Arrival, respond: (a: Answer) => void): void {
    this.onArrival?.(req);
    const m = /^\/payments\/([^/]+)(\/refunds|\/refund|\/capture)?$/.exec(req.path);
    const payment = m ? this.payments.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !payment) return respond(error(404, 'BAD_REQUEST_ERROR', 'The id provided does not exist'));
    const route = `${req.method} ${m[2] ?? ''}`;
    if (route === 'GET ') return respond({ status: 200, body: this.paymentJson(payment) });
    if (route === 'GET /refunds') {
      if (!this.opts.refundList)
        return respond(error(404, 'BAD_REQUEST_ERROR', 'The requested URL was not found on the server.'));
      // Most recent first, in pages (count 10 unless asked, at most 100), as the service pages every list.
      const count = Math.min(100, Number(req.query?.count ?? 10));
      const skip = Number(req.query?.skip ?? 0);
      const all = this.refundsOf(payment.id).reverse();
      const items = all.slice(skip, skip + count).map((r) => this.refundJson(r));
      return respond({ status: 200, body: { entity: 'collection', count: items.length, items } });
    }
    if (route === 'POST /capture') return this.later(() => respond(this.capture(payment, req.body ?? {})));
    if (route === 'POST /refund') return this.refund(payment, req, respond);
    respond(error(400, 'BAD_REQUEST_ERROR', 'The requested URL was not found on the server.'));
  }

  private later(fn: () => void) {
    this.world.at(this.opts.processingMs(), fn);
  }

  private capture(p: SimPayment, body: Record<string, unknown>): Answer {
    if (p.status !== 'authorized') return error(400, 'BAD_REQUEST_ERROR', 'This payment has already been captured');
    if (body.amount !== p.amount || body.currency !== p.currency)
      return error(400, 'BAD_REQUEST_ERROR', 'Capture amount must be equal to the amount authorized', 'amount');
    p.status = 'captured';
    return { status: 200, body: this.paymentJson(p) };
  }

  private refund(p: SimPayment, req: Arrival, respond: (a: Answer) => void) {
    const body = req.body ?? {};
    const key = this.opts.idempotency ? req.key : undefined;
    const text = canonical({ payment: p.id, body });
    if (key !== undefined) {
      if (!/^[A-Za-z0-9_-]{10,}$/.test(key))
        return respond(error(400, 'BAD_REQUEST_ERROR', 'The idempotency key is too short', 'X-Refund-Idempotency'));
      const seen = this.keys.get(key);
      if (seen?.processing)
        return respond(error(409, 'BAD_REQUEST_ERROR', 'A request with this idempotency key is in progress'));
      if (seen && seen.body !== text)
        return respond(
          error(
            400,
            'BAD_REQUEST_ERROR',
            'The idempotency key was used with a different request',
            'X-Refund-Idempotency',
          ),
        );
      if (seen?.refund) return respond({ status: 200, body: this.refundJson(seen.refund) });
    }
    const keyed: Keyed = { body: text, processing: true };
    if (key !== undefined) this.keys.set(key, keyed);
    if (req.sendId !== undefined) this.processing.add(req.sendId);
    this.later(() => {
      if (req.sendId !== undefined) this.processing.delete(req.sendId);
      keyed.processing = false;
      const answer = this.applyRefund(p, body, req);
      if (answer.status === 200) keyed.refund = this.refunds[this.refunds.length - 1];
      else if (key !== undefined) this.keys.delete(key); // a refused request leaves its key free
      respond(answer);
    });
  }

  private applyRefund(p: SimPayment, body: Record<string, unknown>, req: Arrival): Answer {
    if (p.status === 'authorized') return error(400, 'BAD_REQUEST_ERROR', 'The payment has not been captured');
    const left = p.amount - p.amount_refunded;
    const amount = body.amount === undefined ? left : body.amount;
    if (!isAmount(amount)) return error(400, 'BAD_REQUEST_ERROR', 'The amount must be a positive integer', 'amount');
    if (amount > left)
      return error(400, 'BAD_REQUEST_ERROR', 'The refund amount provided is greater than amount captured', 'amount');
    const notes = (body.notes ?? {}) as Record<string, string>;
    const refund: SimRefund = {
      id: `rfnd_sim${String(++this.refundSeq).padStart(6, '0')}`,
      payment_id: p.id,
      amount,
      currency: p.currency,
      notes,
      receipt: body.receipt as string | undefined,
      key: req.key ?? notes.payctl_key,
      actor: req.actor,
      sendId: req.sendId,
      created_at: this.world.now,
    };
    this.refunds.push(refund);
    this.log(
      `    service: ${refund.id} of ${amount} on ${p.id} by ${req.actor}${req.sendId ? ` (send ${req.sendId})` : ''}`,
    );
    p.amount_refunded += amount;
    if (p.amount_refunded === p.amount) p.status = 'refunded';
    return { status: 200, body: this.refundJson(refund) };
  }
}

/** The service a scenario's plan asks for: with or without the header and the list, applying requests slowly as often as the plan says. */
export function serviceFor(
  world: World,
  plan: { idempotency: boolean; refundList: boolean; slowService: number },
  rng: Rng,
): SimService {
  return new SimService(world, {
    idempotency: plan.idempotency,
    refundList: plan.refundList,
    processingMs: () => (rng.chance(plan.slowService) ? rng.int(500, 45_000) : rng.int(1, 30)),
  });
}
