import type { RouteContext } from './context';
import type { PaymentRecord, RefundRecord, SettlementRecord } from './records';
import { IST_OFFSET, creditOf, debitOf } from './settlements';
import type { Store } from './store';

/** The settlement days a report covers: a month, or one day of it, in Asia/Kolkata. */
function period(year: number, month: number, day?: number): { from: number; to: number } {
  const start = Date.UTC(year, month - 1, day ?? 1) / 1000 - IST_OFFSET;
  const end = (day === undefined ? Date.UTC(year, month, 1) : Date.UTC(year, month - 1, day + 1)) / 1000 - IST_OFFSET;
  return { from: start, to: end - 1 };
}

/** A recon row as the real combined report gives one: the item, its settlement, and what it added or took. */
function reconRow(store: Store, settlement: SettlementRecord, ref: SettlementRecord['_items'][number]) {
  const item = store.get(ref.entity, ref.id) as PaymentRecord | RefundRecord;
  const isPayment = item.entity === 'payment';
  const payment = isPayment ? item : store.get('payment', item.payment_id);
  const order = payment?.order_id ? store.get('order', payment.order_id) : undefined;
  return {
    entity_id: item.id,
    type: ref.entity,
    debit: debitOf(item),
    credit: creditOf(item),
    amount: item.amount,
    currency: (item.currency as string | undefined) ?? 'INR',
    fee: isPayment ? (item.fee ?? 0) : 0,
    tax: isPayment ? (item.tax ?? 0) : 0,
    on_hold: false,
    settled: true,
    created_at: item.created_at,
    settled_at: settlement.created_at,
    settlement_id: settlement.id,
    posted_at: null,
    credit_type: 'default',
    description: isPayment ? item.description : null,
    notes: JSON.stringify(item.notes ?? {}),
    payment_id: isPayment ? null : item.payment_id,
    settlement_utr: settlement.utr,
    order_id: payment?.order_id ?? null,
    order_receipt: order?.receipt ?? null,
    method: payment?.method ?? null,
    card_network: null,
    card_issuer: null,
    card_type: null,
    dispute_id: null,
  };
}

/**
 * `GET /settlements/recon/combined`: one row per payment and refund settled in the period, settlement by
 * settlement (oldest first), paged by count and skip. Only the rows of the page asked for are built.
 */
export function recon({ store, query }: RouteContext<'settlementRecon'>) {
  const { from, to } = period(query.year, query.month, query.day);
  const settlements = store.list('settlement', { from, to, count: 1_000_000, skip: 0 }).reverse();
  const count = query.count ?? 10;
  let skip = query.skip ?? 0;
  const items: Array<ReturnType<typeof reconRow>> = [];
  for (const settlement of settlements) {
    if (items.length >= count) break;
    if (skip >= settlement._items.length) {
      skip -= settlement._items.length;
      continue;
    }
    for (const ref of settlement._items.slice(skip, skip + count - items.length))
      items.push(reconRow(store, settlement, ref));
    skip = 0;
  }
  return { entity: 'collection' as const, count: items.length, items };
}
