import { getPath } from './fields';
import { formatMoneyShort } from './money';
import { KINDS } from '../contract/kinds';
import type { ColumnSpec, ResourceKind } from '../contract/kinds';

/** The kinds of rows payctl shows, each declared once in src/contract/kinds. */
export type { ResourceKind };

export interface Column extends ColumnSpec {
  header: string;
  /** A column payctl derives from another: `amount_display`, `created_at_iso`, `created_at_local`, `currency`. */
  derived?: { from: Column; as: Derived; kind: ResourceKind; at: ColumnContext };
}

export type Derived = 'display' | 'iso' | 'local' | 'currency';

/**
 * What derived columns need: the zone, and the time formatters, handed in by callers that already
 * load the time-zone library (CSV, table, spreadsheet), so that JSON output never loads it.
 */
export interface ColumnContext {
  tz: string;
  tagged?: boolean;
  time?: { iso(value: unknown, tz: string): string; local(value: unknown, tz: string): string };
}

const c = (key: string, type: Column['type'] = 'text', extra: Partial<Column> = {}): Column => ({
  key,
  header: key,
  type,
  ...extra,
});

/** Rank of a table column (lower is kept longer). */
export function tableRank(kind: ResourceKind, col: Column, position: number): number {
  const order = KINDS[kind].table;
  const at = order ? order.indexOf(col.key) : -1;
  return at >= 0 ? at : 1000 + position;
}

function guessType(path: string): Column['type'] {
  const leaf = path.split('.').pop() ?? path;
  if (/^(amount|amount_\w+|fee|fees|tax|credit|debit|balance|monthly_usage|max_balance)$/.test(leaf)) return 'money';
  if (/(_at|_start|_end|_by|_until)$/.test(leaf)) return 'time';
  return 'text';
}

/**
 * Money exports name the currency of every row: a `currency` column after the money column the kind
 * names (whose currency it is: the row's, `item.currency` for plans, INR for wallet rows), so that a
 * spreadsheet never sums USD cents and INR paise in one column unknowingly.
 */
function withCurrency(kind: ResourceKind, columns: Column[]): Column[] {
  const at = columns.findIndex((col) => col.key === KINDS[kind].currencyAfter);
  if (at < 0 || columns.some((col) => col.key === 'currency')) return columns;
  const currency: Column = {
    ...c('currency'),
    derived: { from: columns[at]!, as: 'currency', kind, at: { tz: 'UTC' } },
  };
  return [...columns.slice(0, at + 1), currency, ...columns.slice(at + 1)];
}

/** A record kind without columns of its own shows the fields it lists, typed by their names. */
export function derivedColumns(kind: ResourceKind): Column[] {
  const fields = KINDS[kind].fields;
  if (!fields) return [];
  const { plain, objects } = fields;
  return [...plain.filter((f) => f !== 'entity').map((f) => c(f, guessType(f))), ...objects.map((f) => c(f, 'json'))];
}

const withCurrencies = new Map<ResourceKind, Column[]>();

export function defaultColumns(kind: ResourceKind, tagged = false): Column[] {
  let columns = withCurrencies.get(kind);
  if (!columns) {
    const declared = KINDS[kind].columns.map((spec) => ({ ...spec, header: spec.key }));
    withCurrencies.set(kind, (columns = withCurrency(kind, declared.length ? declared : derivedColumns(kind))));
  }
  if (tagged && KINDS[kind].fetchedById) return [...columns, c('error', 'text', { whenSet: true })];
  const parent = KINDS[kind].parent;
  return tagged && parent ? [{ ...parent, header: parent.key }, ...columns] : columns;
}

/** `amount_display` -> money column `amount`, shown as text; `created_at_local` -> time column `created_at`. */
export function fieldColumn(kind: ResourceKind, field: string, at: ColumnContext = { tz: 'UTC' }): Column {
  const m = /^(.+)_(display|iso|local)$/.exec(field);
  const base = m ? c(m[1]!, guessType(m[1]!)) : undefined;
  const fits = base && (m![2] === 'display' ? base.type === 'money' : base.type === 'time');
  if (!fits) return c(field, guessType(field));
  const known = defaultColumns(kind).find((d) => d.key === base.key) ?? base;
  return { key: field, header: field, type: 'text', derived: { from: known, as: m![2] as Derived, kind, at } };
}

/**
 * The columns to show: --fields exactly, else the kind's defaults (with `customer_id` first when the
 * rows come from several customers or a list of them), else every top-level key of a sample row.
 */
export function columnsFor(
  kind: ResourceKind,
  fields?: string[],
  sample?: unknown,
  at: ColumnContext = { tz: 'UTC' },
): Column[] {
  if (fields?.length) return fields.map((f) => fieldColumn(kind, f, at));
  const defaults = defaultColumns(kind, at.tagged);
  if (defaults.length) return defaults;
  if (sample && typeof sample === 'object' && !Array.isArray(sample)) {
    return Object.keys(sample).map((k) => {
      const v = (sample as Record<string, unknown>)[k];
      return c(k, v !== null && typeof v === 'object' ? 'json' : guessType(k));
    });
  }
  return [c('value', 'json')];
}

export function cellValue(row: unknown, col: Column): unknown {
  if (col.derived) {
    const { from, as, kind, at } = col.derived;
    if (as === 'currency') return currencyOf(row, from, kind);
    const v = cellValue(row, from);
    if (v === null || v === undefined) return undefined;
    if (as === 'display') return formatMoneyShort(v, currencyOf(row, from, kind));
    if (!at.time) return v;
    return as === 'iso' ? at.time.iso(v, at.tz) : at.time.local(v, at.tz);
  }
  if (col.key === 'value' && (row === null || typeof row !== 'object')) return row;
  const v = getPath(row, col.key);
  return v === undefined && col.fallback ? getPath(row, col.fallback) : v;
}

export function currencyOf(row: unknown, col: Column, kind: ResourceKind): string | undefined {
  const explicit = getPath(row, col.currencyKey ?? 'currency');
  if (typeof explicit === 'string' && explicit) return explicit;
  return KINDS[kind].walletCurrency ? 'INR' : undefined;
}
