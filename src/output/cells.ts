import type { Column, ResourceKind } from './columns';
import { KINDS } from '../contract/kinds';
import { formatMoneyShort } from './money';

type Read = (row: unknown) => unknown;

/** getPath for one path, compiled: the same lookups (a key sent with a trailing space too), no split per row. */
export function pathReader(path: string): Read {
  const steps = path.split('.').map((key) => ({ key, spaced: `${key} ` }));
  if (steps.length === 1) {
    const { key, spaced } = steps[0]!;
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
      const obj = value as Record<string, unknown>;
      const v = obj[key];
      return v !== undefined || key in obj ? v : obj[spaced];
    };
  }
  return (value) => {
    let cur = value;
    for (const { key, spaced } of steps) {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
      const obj = cur as Record<string, unknown>;
      cur = key in obj ? obj[key] : obj[spaced];
    }
    return cur;
  };
}

/** currencyOf for one column, compiled. */
export function currencyReader(col: Column, kind: ResourceKind): (row: unknown) => string | undefined {
  const read = pathReader(col.currencyKey ?? 'currency');
  const fallback = KINDS[kind].walletCurrency ? 'INR' : undefined;
  return (row) => {
    const explicit = read(row);
    return typeof explicit === 'string' && explicit ? explicit : fallback;
  };
}

/**
 * cellValue for one column, compiled once per export: exports read every column of every row, and
 * working out the path, the currency and the derivation again per cell cost as much as the rest.
 */
export function cellReader(col: Column): Read {
  const d = col.derived;
  if (d) {
    if (d.as === 'currency') return currencyReader(d.from, d.kind);
    const from = cellReader(d.from);
    if (d.as === 'display') {
      const currency = currencyReader(d.from, d.kind);
      return (row) => {
        const v = from(row);
        return v === null || v === undefined ? undefined : formatMoneyShort(v, currency(row));
      };
    }
    const time = d.at.time;
    if (!time) return (row) => from(row) ?? undefined;
    const format = d.as === 'iso' ? time.iso : time.local;
    const tz = d.at.tz;
    return (row) => {
      const v = from(row);
      return v === null || v === undefined ? undefined : format(v, tz);
    };
  }
  const read = pathReader(col.key);
  const fallback = col.fallback ? pathReader(col.fallback) : undefined;
  const plain: Read = fallback
    ? (row) => {
        const v = read(row);
        return v === undefined ? fallback(row) : v;
      }
    : read;
  if (col.key !== 'value') return plain;
  return (row) => (row === null || typeof row !== 'object' ? row : plain(row));
}
