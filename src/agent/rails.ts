import { createHash, randomBytes } from 'node:crypto';

/** Per-session limits of `payctl mcp`, in the smallest currency unit (paise, cents). */
export interface Caps {
  maxAmount?: number;
  maxTotal?: number;
  maxWrites?: number;
  /** How long a confirmation token stays good. */
  tokenTtlMs: number;
}

/** What a write would do, shown to the model (and the human) before anything is sent. */
export interface Plan {
  tool: string;
  args: Record<string, unknown>;
  /** The request(s) that would be sent: method, path, body. */
  requests: { method: string; path: string; body?: unknown }[];
  /** Money it moves (0 for a write that moves none, like cancelling a subscription). */
  amount: number;
  currency?: string;
  /** The amount in both forms, `₹200.00 (20000 paise)`. */
  amountText?: string;
  /** What the service said about the thing being changed, read just now. */
  state?: unknown;
  /** What the plan reuses or knows that the person should know (a key of an unknown refund on record). */
  note?: string;
}

export type Refusal = { cap: 'max-amount' | 'max-total' | 'max-writes'; message: string };

interface Issued {
  plan: Plan;
  digest: string;
  expires: number;
}

export const planDigest = (plan: Plan) =>
  createHash('sha256')
    .update(JSON.stringify([plan.tool, plan.args, plan.requests, plan.amount, plan.currency ?? null]))
    .digest('hex');

/**
 * The session's rails: caps on what writes may move, and one-time tokens bound to one exact plan.
 * A token is spent when it is redeemed, before the write is sent, so a replay can never send twice.
 * Caps are checked and reserved in one step (`take`) at the moment a write is sent, however it was
 * confirmed; what it reserved is given back only when the service's own error object proved it refused.
 */
export class Rails {
  private readonly tokens = new Map<string, Issued>();
  private readonly spent = new Set<string>();
  private moved = 0;
  private writes = 0;

  constructor(
    readonly caps: Caps,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cap this plan would pass, if any: at planning, a courtesy; `take` is what decides. */
  check(plan: Plan): Refusal | undefined {
    const { maxAmount, maxTotal, maxWrites } = this.caps;
    if (maxWrites !== undefined && this.writes + 1 > maxWrites)
      return {
        cap: 'max-writes',
        message: `refused by --max-writes ${maxWrites}: ${this.writes} write(s) already made`,
      };
    if (maxAmount !== undefined && plan.amount > maxAmount)
      return {
        cap: 'max-amount',
        message: `refused by --max-amount ${maxAmount}: this write moves ${plan.amount}`,
      };
    if (maxTotal !== undefined && this.moved + plan.amount > maxTotal)
      return {
        cap: 'max-total',
        message: `refused by --max-total ${maxTotal}: ${this.moved} moved this session, this write adds ${plan.amount}`,
      };
    return undefined;
  }

  issue(plan: Plan): { token: string; expiresAt: string } {
    const token = `pc_${randomBytes(18).toString('base64url')}`;
    const expires = this.now() + this.caps.tokenTtlMs;
    this.tokens.set(token, { plan, digest: planDigest(plan), expires });
    return { token, expiresAt: new Date(expires).toISOString() };
  }

  /**
   * Spends a token: its plan, or why not. The plan returned is the one stored with the token (the
   * caller's copy is never trusted).
   */
  redeem(token: string): { plan: Plan } | { error: string } {
    if (this.spent.has(token)) return { error: 'this confirmation token was already used: nothing was sent again' };
    const issued = this.tokens.get(token);
    if (!issued) return { error: 'unknown confirmation token: nothing was sent' };
    this.tokens.delete(token);
    this.spent.add(token);
    if (this.now() > issued.expires)
      return { error: 'this confirmation token has expired: nothing was sent; plan again' };
    if (planDigest(issued.plan) !== issued.digest)
      return { error: 'the plan changed after it was issued: nothing was sent' };
    return { plan: issued.plan };
  }

  /**
   * Checks the caps and reserves the write against them in one synchronous step, right before it is
   * sent: no other call can come between the check and the reservation, whichever way each was confirmed.
   */
  take(plan: Plan): Refusal | undefined {
    const refusal = this.check(plan);
    if (refusal) return refusal;
    this.writes++;
    this.moved += plan.amount;
    return undefined;
  }

  /** The service's own error object refused the write: what it reserved is free again. */
  release(plan: Plan) {
    this.writes--;
    this.moved -= plan.amount;
  }

  get usage() {
    return { writes: this.writes, moved: this.moved };
  }
}
