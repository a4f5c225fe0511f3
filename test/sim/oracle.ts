import type { SendRecord } from './network';
import type { SimService } from './service';

/** What the user asked for one payment: a refund of `amount` (or of all that remains), or a capture. */
export type Intent = { kind: 'refund'; amount?: number; bound: number } | { kind: 'capture' };

/** A claim payctl made to the user about one payment, checked against the service at the moment it was made. */
export type Claim =
  | 'done' // the refund or capture happened
  | 'not_applied' // nothing happened and nothing will: safe to send again
  | 'nothing_sent' // nothing was sent at all
  | 'failed'; // refused, or proven not applied: a person may redo it by hand

export interface Violation {
  invariant: string;
  detail: string;
}

const NOTHING_SENT = /nothing (was )?sent|never reached the service|nothing was applied/i;
export const saysNothingSent = (text: string | undefined) => text !== undefined && NOTHING_SENT.test(text);

/**
 * The invariants of money movement, checked by the simulation's ground truth (which request made
 * which refund, which are still on their way) rather than by anything payctl says about itself.
 */
export class Oracle {
  readonly violations: Violation[] = [];
  readonly intents = new Map<string, Intent>();

  constructor(
    private readonly service: SimService,
    private readonly sends: SendRecord[],
  ) {}

  private fail(invariant: string, detail: string) {
    if (this.violations.length < 20) this.violations.push({ invariant, detail });
  }

  /** A payctl refund arrives at the service: what it asks must be what the user intended. */
  onRefundArrival(paymentId: string, body: Record<string, unknown> | undefined) {
    const intent = this.intents.get(paymentId);
    const amount = body?.amount;
    if (!intent || intent.kind !== 'refund') return this.fail('sent-without-intent', `refund of ${paymentId} sent`);
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0)
      return this.fail('sent-beyond-intent', `refund of ${paymentId} sent with amount ${JSON.stringify(amount)}`);
    if (intent.amount !== undefined ? amount !== intent.amount : amount > intent.bound)
      this.fail(
        'sent-beyond-intent',
        `refund of ${paymentId} sent for ${amount}; intended ${intent.amount ?? `at most ${intent.bound} (all that remained)`}`,
      );
  }

  /** A payctl capture arrives: it must be of the payment's own amount and currency. */
  onCaptureArrival(paymentId: string, body: Record<string, unknown> | undefined) {
    const p = this.service.payments.get(paymentId);
    const intent = this.intents.get(paymentId);
    if (!p || intent?.kind !== 'capture') return this.fail('sent-without-intent', `capture of ${paymentId} sent`);
    if (body?.amount !== p.amount || body.currency !== p.currency)
      this.fail(
        'sent-beyond-intent',
        `capture of ${paymentId} sent for ${JSON.stringify(body)}; the payment is ${p.amount} ${p.currency}`,
      );
  }

  /** Payctl's requests for this payment that may still land (on their way, or being applied). */
  mayStillLand(paymentId: string): boolean {
    // One that asks for more than remains now can never apply: what remains only shrinks.
    const p = this.service.payments.get(paymentId)!;
    const left = p.amount - p.amount_refunded;
    return this.sends.some(
      (s) =>
        s.paymentId === paymentId &&
        s.method === 'POST' &&
        (s.inTransit > 0 || this.service.processing.has(s.id)) &&
        !(typeof s.body?.amount === 'number' && s.body.amount > left),
    );
  }

  private ours(paymentId: string) {
    return this.service.refundsOf(paymentId, 'payctl');
  }

  claim(
    who: string,
    paymentId: string,
    claim: Claim,
    extra: { refundId?: string; proc?: number; reason?: string } = {},
  ) {
    const intent = this.intents.get(paymentId);
    if (!intent) return;
    const payment = this.service.payments.get(paymentId)!;
    const at = `${who}: ${paymentId}${extra.reason ? ` (${extra.reason.slice(0, 160)})` : ''}`;
    if (claim === 'done') {
      if (intent.kind === 'capture') {
        if (payment.status === 'authorized') this.fail('done-but-not-captured', `${at} called done, still authorized`);
        return;
      }
      const ours = this.ours(paymentId);
      if (!ours.length)
        this.fail('done-without-our-refund', `${at} called done; its refunds: ${this.describe(paymentId)}`);
      else if (extra.refundId && !ours.some((r) => r.id === extra.refundId))
        this.fail('done-names-another-refund', `${at} called done by ${extra.refundId}, not one of ours`);
      return;
    }
    if (intent.kind === 'capture') {
      if (claim === 'nothing_sent' && this.postsOf(paymentId, extra.proc).some((s) => s.arrived || s.inTransit))
        this.fail('nothing-sent-but-sent', `${at} said nothing was sent, yet a capture reached the service`);
      return;
    }
    if (claim === 'nothing_sent') {
      // About this process alone: an earlier one may have sent it (the journal says so, or the key).
      if (this.postsOf(paymentId, extra.proc).some((s) => s.arrived || s.inTransit))
        this.fail('nothing-sent-but-sent', `${at} said nothing was sent, yet its refund reached the service`);
      return;
    }
    if (this.mayStillLand(paymentId))
      this.fail(`${claim}-while-in-flight`, `${at} called ${claim.replace('_', ' ')} while our refund may still land`);
    else if (this.ours(paymentId).length)
      this.fail(
        `${claim}-but-applied`,
        `${at} called ${claim.replace('_', ' ')}, yet our refund exists: ${this.describe(paymentId)}`,
      );
  }

  /**
   * Write-ahead: a bulk run sends a write only once a whole `sent` record announcing it (its payment,
   * and for a refund its amount and key) is on the disk for good, so a crash or a full disk at any
   * byte leaves a journal that knows the request may have gone. `durable`: the journal's synced lines.
   */
  checkAnnounced(who: string, s: SendRecord, durable: string[]) {
    const announces = (line: string) => {
      if (!line.includes('"type":"sent"') || !line.includes(s.paymentId)) return false;
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return false;
      }
      if (r?.type !== 'sent' || r.id !== s.paymentId) return false;
      if (!s.path.endsWith('/refund')) return true;
      return r.key === s.key && (typeof s.body?.amount !== 'number' || r.amount === s.body.amount);
    };
    if (!durable.some(announces))
      this.fail(
        'sent-before-journaled',
        `${who}: ${s.method} ${s.path}${s.key ? ` key ${s.key}` : ''} sent with no whole \`sent\` record of it on the disk for good`,
      );
  }

  /**
   * A journal as a run starts from it: every payment an earlier process of this machine sent a write
   * for must be known to it as sent (in flight, unknown, done or failed), never as new: a crash, a
   * torn record or a full disk may make its outcome unknown, never make it "nothing was sent".
   */
  checkJournal(who: string, stateOf: (id: string) => string, earlier: Set<number>) {
    const forgotten = new Set<string>();
    for (const s of this.sends)
      if (s.method === 'POST' && earlier.has(s.proc) && this.intents.has(s.paymentId) && stateOf(s.paymentId) === 'new')
        forgotten.add(s.paymentId);
    for (const id of forgotten)
      this.fail(
        'journal-forgot-send',
        `${who}: the journal holds ${id} as never sent, yet an earlier process sent ${this.sends
          .filter((s) => s.paymentId === id && s.method === 'POST' && earlier.has(s.proc))
          .map((s) => `send ${s.id}`)
          .join(', ')}`,
      );
  }

  /**
   * Service data is checked before money arithmetic: a write never goes out on figures a hostile
   * answer gave (a negative or fractional amount, another payment's record): the last read of its
   * payment this process took in must not be a mangled one.
   */
  checkNotHostile(who: string, s: SendRecord) {
    if (s.afterHostileRead)
      this.fail(
        'sent-on-hostile-read',
        `${who}: ${s.method} ${s.path} ${JSON.stringify(s.body ?? {}).slice(0, 120)} sent just after a mangled read of the payment`,
      );
  }

  private postsOf(paymentId: string, proc: number | undefined) {
    return this.sends.filter((s) => s.paymentId === paymentId && s.method === 'POST' && s.proc === proc);
  }

  describe(paymentId: string): string {
    const list = this.service.refundsOf(paymentId).map((r) => `${r.id} ${r.amount} by ${r.actor}`);
    return list.length ? list.join(', ') : 'none';
  }

  /** After the scenario, once every request has landed or is lost for good. */
  /**
   * Payments payctl refunded more than once under one key (a service that ignored the header): each
   * must be reported as a duplicate by a recheck of the run, with every refund id carrying the key.
   */
  checkDuplicatesNamed(who: string, named: Map<string, string>) {
    for (const [id, intent] of this.intents) {
      if (intent.kind !== 'refund') continue;
      const byKey = new Map<string, string[]>();
      for (const r of this.ours(id))
        if (r.notes.payctl_key) byKey.set(r.notes.payctl_key, [...(byKey.get(r.notes.payctl_key) ?? []), r.id]);
      for (const [key, refunds] of byKey) {
        if (refunds.length < 2) continue;
        const shown = named.get(id);
        if (!shown || refunds.some((r) => !shown.includes(r)))
          this.fail(
            'double-not-named',
            `${who}: ${id} has ${refunds.length} refunds carrying key ${key} (${refunds.join(', ')}); ` +
              `the recheck said ${shown === undefined ? 'nothing of it' : `duplicate ${shown}`}`,
          );
      }
    }
  }

  finish() {
    for (const [id, intent] of this.intents) {
      const p = this.service.payments.get(id)!;
      if (p.amount_refunded > p.amount || p.amount_refunded < 0)
        this.fail('refunded-beyond-payment', `${id}: amount_refunded ${p.amount_refunded} of ${p.amount}`);
      if (intent.kind !== 'refund') continue;
      const ours = this.ours(id);
      const total = ours.reduce((sum, r) => sum + r.amount, 0);
      if (ours.length > 1)
        this.fail(
          'refunded-twice',
          `${id}: payctl made ${ours.length} refunds (${this.describe(id)}), intended one; sent by: ` +
            ours.map((r) => this.sends.find((x) => x.id === r.sendId)?.command ?? '?').join(' | '),
        );
      else if (total > (intent.amount ?? intent.bound))
        this.fail(
          'refunded-beyond-intent',
          `${id}: payctl refunded ${total}, intended ${intent.amount ?? intent.bound}`,
        );
    }
  }
}
