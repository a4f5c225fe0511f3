import type { BankEntry } from './types';

/*
 * Finding a UTR in what a bank wrote: banks copy it into a reference or narration field, often behind a
 * rail's prefix (`NEFT-`, `RTGS/`, `IMPS `) or glued to one, and some cut it to 16 characters or fewer.
 */

/** A cut UTR is trusted to name a settlement from this many characters on. */
export const CUT_MIN = 8;
/** Shorter tokens are never read as a cut UTR (dates, cheque numbers, branch codes). */
const TOKEN_MIN = 6;
/** A rail's name glued to the front of a UTR a bank then cut (`NEFTN1940…`). */
const RAIL = /^(NEFTN|NEFTR|NEFT|RTGSR|RTGS|IMPS|UTR)(.+)$/;

export class UtrIndex<T> {
  readonly byUtr = new Map<string, T>();
  readonly sorted: string[];
  readonly lengths: number[];

  constructor(items: T[], utr: (item: T) => string) {
    for (const item of items) {
      const u = utr(item).toUpperCase();
      if (u) this.byUtr.set(u, item);
    }
    this.sorted = [...this.byUtr.keys()].sort();
    this.lengths = [...new Set(this.sorted.map((u) => u.length))];
  }

  /** The UTRs starting with `prefix`. */
  startingWith(prefix: string): T[] {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: T[] = [];
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++)
      out.push(this.byUtr.get(this.sorted[i]!)!);
    return out;
  }
}

export type Found<T> =
  | { kind: 'utr' | 'reference' | 'truncated'; item: T }
  | { kind: 'ambiguous'; token: string; candidates: T[] }
  | { kind: 'none' };

/**
 * The settlement a bank entry names: its reference is a UTR (`utr`); a UTR appears whole in its
 * reference or narration, alone or glued to a prefix (`reference`); or a word of 8-16 characters starts
 * exactly one UTR (`truncated`). A word that starts several, or a shorter one that starts any, is
 * `ambiguous`: a cut UTR that names no one settlement.
 */
export function findUtr<T>(index: UtrIndex<T>, e: BankEntry): Found<T> {
  const ref = e.reference.trim().toUpperCase();
  for (const field of ref.split(/\s+/)) {
    const exact = index.byUtr.get(field);
    if (exact) return { kind: 'utr', item: exact };
  }
  const words = `${ref} ${e.narration.toUpperCase()}`.split(/[^A-Z0-9]+/).filter((w) => w.length >= TOKEN_MIN);
  for (const w of words) {
    const whole = index.byUtr.get(w);
    if (whole) return { kind: 'reference', item: whole };
  }
  for (const w of words)
    for (const len of index.lengths)
      for (let i = 1; i + len <= w.length; i++) {
        const inside = index.byUtr.get(w.slice(i, i + len));
        if (inside) return { kind: 'reference', item: inside };
      }
  let ambiguous: Found<T> | undefined;
  const cut = words.flatMap((w) => {
    const bare = RAIL.exec(w)?.[2];
    return bare && bare.length >= TOKEN_MIN ? [w, bare] : [w];
  });
  for (const w of cut) {
    if (w.length > 16) continue;
    const starts = index.startingWith(w);
    if (starts.length === 1 && w.length >= CUT_MIN) return { kind: 'truncated', item: starts[0]! };
    if (starts.length && !ambiguous) ambiguous = { kind: 'ambiguous', token: w, candidates: starts };
  }
  return ambiguous ?? { kind: 'none' };
}
