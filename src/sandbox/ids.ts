import { randomFillSync } from 'node:crypto';
import { idPrefix } from '../contract/kinds';
import type { IdKind } from '../contract/kinds';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Bytes from the OS random source, drawn a pool at a time (one call per id cost more than the id); each used once. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

/** `length` base62 characters from the OS random source (rejection sampling keeps them uniform). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** The id of the account `sandbox start` prints (the database's own keys), as events have always named it. */
export const DEFAULT_ACCOUNT = 'acc_sandbox';

/** Ids shaped like the real service's: prefix + 14 base62 characters. */
export const newId = (prefix: string) => `${prefix}_${base62(14)}`;

/** A new id of a record of this kind, with the prefix its declaration gives (src/contract/kinds). */
export const recordId = (kind: IdKind) => newId(idPrefix(kind));

/** A small seeded PRNG (mulberry32) so fault injection is reproducible with --seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
