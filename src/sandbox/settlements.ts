import type { RouteContext } from './context';
import { notFound } from './errors';
import { recordEvent } from './events';
import { base62, recordId } from './ids';
import type { PaymentRecord, RefundRecord, SettlementRecord } from './records';
import type { Store } from './store';
import { collection, pageWindow, publicView } from './views';

const DAY = 86_400;
/** India's offset from UTC (no daylight saving): settlement days are days in Asia/Kolkata. */
export const IST_OFFSET = 19_800;
/** The hour of the day (Asia/Kolkata) at which each day's settlement is made. */
const SETTLEMENT_HOUR = 11;

/** Midnight in Asia/Kolkata of the day holding `t`. */
export const istDayStart = (t: number) => Math.floor((t + IST_OFFSET) / DAY) * DAY - IST_OFFSET;

/** When money captured or refunded at `t` settles: two days later (T+2), at the settlement hour. */
export const settlementDue = (t: number) => istDayStart(t) + 2 * DAY + SETTLEMENT_HOUR * 3600;

/** The first settlement hour after `now`. */
const nextSlot = (now: number) => {
  const today = istDayStart(now) + SETTLEMENT_HOUR * 3600;
  return today > now ? today : today + DAY;
};

type Item = PaymentRecord | RefundRecord;
interface Due {
  record: Item;
  at: number;
}

/** A payment's row credits what it captured less the fee (GST included); a refund's row debits its amount. */
export const creditOf = (item: Item) => (item.entity === 'payment' ? item.amount - (item.fee ?? 0) : 0);
export const debitOf = (item: Item) => (item.entity === 'refund' ? item.amount : 0);

const DUE_SQL = 'SELECT data, due_at FROM records WHERE entity = ? AND status = ? AND due_at <= ? ORDER BY due_at, seq';

/**
 * What settles once its settlement time (its `due_at`) comes. A captured payment refunded in full
 * since is `refunded`: its capture still settles.
 */
export const SETTLING = [
  ['payment', 'captured'],
  ['payment', 'refunded'],
  ['refund', 'processed'],
] as const;

function dueItems(store: Store, now: number): Due[] {
  const read = (entity: string, status: string) =>
    (store.sql(DUE_SQL).all(entity, status, now) as Array<{ data: string; due_at: number }>).map((r) => ({
      record: JSON.parse(r.data) as Item,
      at: r.due_at,
    }));
  return SETTLING.flatMap(([entity, status]) => read(entity, status));
}

/** One settlement of the items due at `at`: their net, fees and GST, a UTR, each item marked settled. */
function settle(store: Store, now: number, at: number, items: Item[]): SettlementRecord {
  const payments = items.filter((i): i is PaymentRecord => i.entity === 'payment');
  const settlement = store.insert<SettlementRecord>({
    id: recordId('settlement'),
    entity: 'settlement',
    amount: items.reduce((sum, i) => sum + creditOf(i) - debitOf(i), 0),
    status: 'processed',
    fees: payments.reduce((sum, p) => sum + (p.fee ?? 0), 0),
    tax: payments.reduce((sum, p) => sum + (p.tax ?? 0), 0),
    // Shaped like the real ones (`1568176960vxp0rj`): the settlement's time and six random characters.
    utr: `${at}${base62(6).toLowerCase()}`,
    created_at: at,
    _items: [...payments, ...items.filter((i) => i.entity === 'refund')].map((i) => ({ entity: i.entity, id: i.id })),
  });
  for (const item of items) store.update({ ...item, _settlement_id: settlement.id }, null);
  recordEvent(store, now, 'settlement.processed', { settlement });
  return settlement;
}

/**
 * Settles what has fallen due by `now`: one settlement per settlement day, made at that day's hour.
 * A day whose refunds outweigh its payments makes no deposit: its items join the next day's.
 */
export function settleDue(store: Store, now: number): void {
  const due = dueItems(store, now);
  if (!due.length) return;
  const days = new Map<number, Item[]>();
  for (const { record, at } of due) days.set(at, [...(days.get(at) ?? []), record]);
  const order = [...days.keys()].sort((a, b) => a - b);
  store.tx(() => {
    let carried: Item[] = [];
    order.forEach((at, i) => {
      const items = [...carried, ...days.get(at)!];
      carried = [];
      const net = items.reduce((sum, item) => sum + creditOf(item) - debitOf(item), 0);
      if (net > 0) settle(store, now, at, items);
      else if (i + 1 < order.length) carried = items;
      else for (const item of items) store.update(item, nextSlot(now));
    });
  });
}

export function loadSettlement(store: Store, id: string): SettlementRecord {
  const settlement = store.get('settlement', id);
  if (!settlement) throw notFound();
  return settlement;
}

export const list = ({ store, query }: RouteContext<'listSettlements'>) =>
  collection(store.list('settlement', pageWindow(query)));

export const get = ({ store, params }: RouteContext<'getSettlement'>) => publicView(loadSettlement(store, params.id!));

/** Sets a settlement's amount, so that its recon rows no longer add up to it (tests of a report that does not tie out). */
export function tamper(store: Store, id: string, amount: number) {
  return publicView(store.tx(() => store.update({ ...loadSettlement(store, id), amount })));
}
