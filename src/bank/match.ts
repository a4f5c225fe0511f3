import { findUtr, UtrIndex } from './utr';
import type { BankEntry } from './types';
import { daysBetween } from './values';

/** A settlement as the matcher needs it (amount in paise, `created_at` Unix seconds). */
export interface SettlementLike {
  id: string;
  utr: string;
  amount: number;
  created_at: number;
}

/** How a credit was tied to its settlement. */
export type MatchedBy = 'utr' | 'reference' | 'truncated';

export interface Matched {
  settlement: SettlementLike;
  /** Its day in India, where the service counts settlement days. */
  day: string;
  entry: BankEntry;
  by: MatchedBy;
  daysApart: number;
  /** Bank amount less settlement amount (paise): 0 when they agree. */
  difference: number;
  /** A settlement of a neighbouring period (it explains the credit; it is not owed by this one). */
  neighbour: boolean;
}

export type FindingKind = 'balance' | 'missing' | 'unexplained' | 'amount' | 'date' | 'truncated' | 'duplicate';

export interface Finding {
  kind: FindingKind;
  side: 'bank' | 'settlement' | 'both';
  settlement?: SettlementLike;
  entry?: BankEntry;
  /** Paise: the bank's amount less the settlement's (amount), or a statement's closing less what its entries make. */
  difference?: number;
  reason: string;
}

export interface MatchOptions {
  /** Days after the settlement's day its credit's value date may fall (weekends, bank holidays). */
  window: number;
  /** Every unmatched credit is a finding, not only those that look like the service's. */
  allCredits: boolean;
  /** How a credit looks when it comes from the payment service (its documented narrations). */
  serviceLike: (e: BankEntry) => boolean;
}

const IST = 19_800;
export const istDay = (t: number) => new Date((t + IST) * 1000).toISOString().slice(0, 10);

/** The most bank-side findings kept one by one; past it they are counted. */
export const KEPT_MAX = 10_000;

/**
 * Ties bank credits to settlements as the credits stream past (only the settlements, the matches and
 * the findings are held): by UTR, by a reference that holds it, or by a truncated UTR that starts exactly
 * one settlement's; then the amount to the paisa and the value date within the window.
 */
export class Matcher {
  private readonly index: UtrIndex<SettlementLike>;
  private readonly owed: Set<string>;
  readonly matched = new Map<string, Matched>();
  readonly findings: Finding[] = [];
  /** Bank-side findings past KEPT_MAX: counted, not kept. */
  readonly dropped = { count: 0, amount: 0 };
  readonly credits = { count: 0, amount: 0, service: 0 };
  /** Settlements a cut UTR may name, and the credit that carries it. */
  private readonly maybe = new Map<string, BankEntry>();

  constructor(
    readonly period: SettlementLike[],
    neighbours: SettlementLike[],
    private readonly opts: MatchOptions,
  ) {
    this.index = new UtrIndex([...period, ...neighbours], (s) => s.utr);
    this.owed = new Set(period.map((s) => s.id));
  }

  private find(f: Finding) {
    if (f.side === 'bank' && this.findings.length >= KEPT_MAX) {
      this.dropped.count++;
      this.dropped.amount += f.entry?.amount ?? 0;
    } else this.findings.push(f);
  }

  credit(e: BankEntry): void {
    this.credits.count++;
    this.credits.amount += e.amount;
    const service = this.opts.serviceLike(e);
    if (service) this.credits.service++;
    const found = findUtr(this.index, e);
    const watched = service || this.opts.allCredits;
    if (found.kind === 'none') {
      if (watched)
        this.find({ kind: 'unexplained', side: 'bank', entry: e, reason: 'a credit that matches no settlement' });
      return;
    }
    if (found.kind === 'ambiguous') {
      if (!watched && found.token.length < 8) return;
      for (const s of found.candidates) if (this.owed.has(s.id) && !this.maybe.has(s.id)) this.maybe.set(s.id, e);
      const names = found.candidates.slice(0, 5).map((s) => `${s.id} (UTR ${s.utr})`);
      this.find({
        kind: 'truncated',
        side: 'bank',
        entry: e,
        reason:
          `a cut UTR "${found.token}" that does not name one settlement: it starts ` +
          `${found.candidates.length > 5 ? `${found.candidates.length} settlements' UTRs, e.g. ` : ''}${names.join(', ')}`,
      });
      return;
    }
    const s = found.item;
    const earlier = this.matched.get(s.id);
    if (earlier) {
      this.find({
        kind: 'duplicate',
        side: 'bank',
        settlement: s,
        entry: e,
        reason: `a second credit for ${s.id} (UTR ${s.utr}), already matched at ${earlier.entry.file}:${earlier.entry.line}`,
      });
      return;
    }
    const day = istDay(s.created_at);
    const m: Matched = {
      settlement: s,
      day,
      entry: e,
      by: found.kind,
      daysApart: daysBetween(day, e.valueDate),
      difference: e.amount - s.amount,
      neighbour: !this.owed.has(s.id),
    };
    this.matched.set(s.id, m);
    if (m.difference)
      this.find({
        kind: 'amount',
        side: 'both',
        settlement: s,
        entry: e,
        difference: m.difference,
        reason: 'the bank credited a different amount',
      });
    if (m.daysApart < 0 || m.daysApart > this.opts.window)
      this.find({
        kind: 'date',
        side: 'both',
        settlement: s,
        entry: e,
        reason: `value date ${e.valueDate} is ${m.daysApart} days from the settlement's day ${day} (window 0-${this.opts.window})`,
      });
  }

  /** The period's settlements no credit matched, once every statement is read (`last`: the statements' last day). */
  finish(last: string | undefined): void {
    for (const s of this.period) {
      if (this.matched.has(s.id)) continue;
      const day = istDay(s.created_at);
      const cut = this.maybe.get(s.id);
      const due = new Date(Date.parse(day) + this.opts.window * 86_400_000).toISOString().slice(0, 10);
      const reason = cut
        ? `not matched: the cut UTR of the credit at ${cut.file}:${cut.line} may be its`
        : last !== undefined && due > last
          ? `not in the bank statement (its value date may be as late as ${due}; the statements end ${last})`
          : 'not in the bank statement';
      this.findings.push({ kind: cut ? 'truncated' : 'missing', side: 'settlement', settlement: s, reason });
    }
  }
}
