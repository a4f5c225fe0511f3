import { getPath } from './fields';
import { formatMoneyShort } from './money';
import { RECORD_FIELDS } from '../contract/record-fields';
import type { RecordKind } from '../contract/record-fields';

/** The kinds of rows payctl shows: the service's records (those the contract lists fields of, and more), and its own. */
export type ResourceKind =
  | RecordKind
  | 'plan'
  | 'subscription'
  | 'transfer'
  | 'fund_account'
  | 'payout'
  | 'wallet_balance'
  | 'wallet_payment'
  | 'profile'
  | 'bulk_result'
  | 'customer'
  | 'event'
  | 'mcp_log'
  | 'generic';

export interface Column {
  key: string;
  header: string;
  /** A table shows it only when some row has a value in it (the `error` of an id that could not be read). */
  whenSet?: boolean;
  /** A shorter header a table may show, so that the column fits a narrow terminal (CSV and xlsx keep `header`). */
  short?: string;
  type: 'text' | 'money' | 'time' | 'bool' | 'json';
  /** Older payloads name some fields differently (transfer `transfer_status`). */
  fallback?: string;
  /** Where a money column's currency is; default the row's `currency`, INR for wallet rows. */
  currencyKey?: string;
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

/**
 * The columns of each kind, in order. A kind the contract lists fields of needs none here: its columns
 * are those fields (see `derivedColumns`).
 */
const DEFAULTS: Partial<Record<ResourceKind, Column[]>> = {
  order: [
    c('id'),
    c('status'),
    c('amount', 'money'),
    c('amount_paid', 'money'),
    c('amount_due', 'money'),
    c('attempts'),
    c('receipt'),
    c('created_at', 'time'),
  ],
  payment: [
    c('id'),
    c('status'),
    c('amount', 'money'),
    c('amount_refunded', 'money', { short: 'refunded' }),
    c('method'),
    c('order_id'),
    c('email'),
    c('contact'),
    c('captured', 'bool'),
    c('created_at', 'time'),
  ],
  refund: [
    c('id'),
    c('payment_id'),
    c('amount', 'money'),
    c('currency'),
    c('status'),
    c('created_at', 'time'),
    c('receipt'),
    c('speed_processed'),
    c('notes', 'json'),
  ],
  plan: [
    c('id'),
    c('period'),
    c('interval'),
    c('item.name'),
    c('item.amount', 'money', { currencyKey: 'item.currency' }),
    c('created_at', 'time'),
  ],
  subscription: [
    c('id'),
    c('plan_id'),
    c('status'),
    c('paid_count'),
    c('remaining_count'),
    c('total_count'),
    c('current_start', 'time'),
    c('current_end', 'time'),
    c('charge_at', 'time'),
  ],
  transfer: [
    c('id'),
    c('status', 'text', { fallback: 'transfer_status' }),
    c('source'),
    c('recipient'),
    c('amount', 'money'),
    c('fees', 'money'),
    c('tax', 'money'),
    c('created_at', 'time'),
  ],
  fund_account: [
    c('id'),
    c('customer_id'),
    c('bank_account.name'),
    c('bank_account.ifsc'),
    c('bank_account.account_number'),
    c('active'),
    c('created_at', 'time'),
  ],
  payout: [
    c('id'),
    c('status'),
    c('amount', 'money'),
    c('fees', 'money'),
    c('tax', 'money'),
    c('purpose'),
    c('fund_account_id'),
    c('utr'),
    c('created_at', 'time'),
  ],
  customer_transaction: [
    c('created_at', 'time'),
    c('type'),
    c('credit', 'money'),
    c('debit', 'money'),
    c('balance', 'money'),
    c('description'),
    c('id'),
    c('source'),
  ],
  wallet_balance: [c('balance', 'money'), c('monthly_usage', 'money'), c('max_balance', 'money')],
  wallet_payment: [c('gateway_payment_id'), c('gateway_order_id'), c('gateway_signature')],
  profile: [c('name'), c('key_id'), c('key_secret'), c('base_url'), c('live', 'bool'), c('default', 'bool')],
  bulk_result: [
    c('line'),
    c('payment_id'),
    c('result'),
    c('status'),
    c('amount', 'money'),
    c('refund_id'),
    c('reason'),
  ],
  customer: [c('id'), c('name'), c('contact'), c('email'), c('created_at', 'time')],
  event: [c('created_at', 'time'), c('event'), c('id'), c('delivery'), c('attempts')],
  mcp_log: [c('at'), c('tool'), c('event'), c('amount', 'money'), c('target'), c('result_id'), c('message')],
  generic: [],
};

/**
 * Table columns by importance, per resource: on a narrow terminal the last go first. Columns not listed
 * (and every column of --fields, which keep the order asked for) rank by their position.
 */
const TABLE_PRIORITY: Partial<Record<ResourceKind, string[]>> = {
  order: ['id', 'status', 'amount', 'created_at', 'amount_due', 'amount_paid', 'receipt', 'attempts'],
  // At 80 columns: id, status, amount, refunded, created_at; with room, whom it was from (e-mail, phone).
  payment: [
    'id',
    'status',
    'amount',
    'amount_refunded',
    // Only in a read of many ids where one failed: its error, cut to the room left, before the time.
    'error',
    'created_at',
    'email',
    'contact',
    'method',
    'order_id',
    'captured',
  ],
  // At 80 columns: id, amount, status and created_at (when it was refunded); with room, the payment.
  refund: [
    'id',
    'amount',
    'status',
    'error',
    'created_at',
    'payment_id',
    'receipt',
    'speed_processed',
    'currency',
    'notes',
  ],
  plan: ['id', 'item.name', 'item.amount', 'period', 'interval', 'created_at'],
  subscription: [
    'id',
    'status',
    'plan_id',
    'charge_at',
    'paid_count',
    'total_count',
    'remaining_count',
    'current_end',
    'current_start',
  ],
  transfer: ['id', 'status', 'amount', 'recipient', 'created_at', 'source', 'fees', 'tax'],
  fund_account: [
    'id',
    'customer_id',
    'bank_account.name',
    'bank_account.account_number',
    'bank_account.ifsc',
    'active',
    'created_at',
  ],
  payout: ['id', 'status', 'amount', 'purpose', 'created_at', 'utr', 'fund_account_id', 'fees', 'tax'],
  customer_transaction: [
    'customer_id',
    'created_at',
    'type',
    'balance',
    'credit',
    'debit',
    'description',
    'id',
    'source',
  ],
  profile: ['name', 'base_url', 'live', 'default', 'key_id', 'key_secret'],
  bulk_result: ['payment_id', 'result', 'reason', 'status', 'amount', 'refund_id', 'line'],
  event: ['created_at', 'event', 'delivery', 'id', 'attempts'],
};

/** Rank of a table column (lower is kept longer). */
export function tableRank(kind: ResourceKind, col: Column, position: number): number {
  const order = TABLE_PRIORITY[kind];
  const at = order ? order.indexOf(col.key) : -1;
  return at >= 0 ? at : 1000 + position;
}

const WALLET_KINDS: ResourceKind[] = ['customer_transaction', 'wallet_balance', 'transfer', 'payout'];

function guessType(path: string): Column['type'] {
  const leaf = path.split('.').pop() ?? path;
  if (/^(amount|amount_\w+|fee|fees|tax|credit|debit|balance|monthly_usage|max_balance)$/.test(leaf)) return 'money';
  if (/(_at|_start|_end|_by|_until)$/.test(leaf)) return 'time';
  return 'text';
}

/**
 * Money exports name the currency of every row: a `currency` column after this money column (whose
 * currency it is: the row's, `item.currency` for plans, INR for wallet rows), so that a spreadsheet
 * never sums USD cents and INR paise in one column unknowingly.
 */
const CURRENCY_AFTER: Partial<Record<ResourceKind, string>> = {
  order: 'amount',
  payment: 'amount',
  refund: 'amount',
  plan: 'item.amount',
  transfer: 'amount',
  payout: 'amount',
  customer_transaction: 'balance',
  wallet_balance: 'max_balance',
  bulk_result: 'amount',
};

function withCurrency(kind: ResourceKind, columns: Column[]): Column[] {
  const at = columns.findIndex((col) => col.key === CURRENCY_AFTER[kind]);
  if (at < 0 || columns.some((col) => col.key === 'currency')) return columns;
  const currency: Column = {
    ...c('currency'),
    derived: { from: columns[at]!, as: 'currency', kind, at: { tz: 'UTC' } },
  };
  return [...columns.slice(0, at + 1), currency, ...columns.slice(at + 1)];
}

/** A record kind without columns of its own shows the fields the contract lists, typed by their names. */
export function derivedColumns(kind: ResourceKind): Column[] {
  if (!Object.hasOwn(RECORD_FIELDS, kind)) return [];
  const { plain, objects } = RECORD_FIELDS[kind as RecordKind];
  return [...plain.filter((f) => f !== 'entity').map((f) => c(f, guessType(f))), ...objects.map((f) => c(f, 'json'))];
}

const withCurrencies = new Map<ResourceKind, Column[]>();

/** Kinds read by many ids at once (`payments get ID...`): tagged rows end in `error`, set on an id that failed. */
const FETCHED_BY_ID: ResourceKind[] = ['payment', 'refund'];

export function defaultColumns(kind: ResourceKind, tagged = false): Column[] {
  let columns = withCurrencies.get(kind);
  if (!columns) withCurrencies.set(kind, (columns = withCurrency(kind, DEFAULTS[kind] ?? derivedColumns(kind))));
  if (tagged && FETCHED_BY_ID.includes(kind)) return [...columns, c('error', 'text', { whenSet: true })];
  return tagged && kind === 'customer_transaction' ? [c('customer_id'), ...columns] : columns;
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
  return WALLET_KINDS.includes(kind) ? 'INR' : undefined;
}
