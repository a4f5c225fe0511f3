import { LIMITS } from '../contract/limits';
import type { RouteContext } from './context';
import { SandboxError, notFound } from './errors';
import { loadPayment } from './payments';
import type { Notes, StoredRecord } from './records';
import type { Store } from './store';
import { collection, publicView } from './views';

/** An order's payment attempts all come in one answer: the service does not page them. */
const ALL_ATTEMPTS = { count: 1_000_000, skip: 0 };

function loadOrder(store: Store, id: string) {
  const order = store.get('order', id);
  if (!order) throw notFound();
  return order;
}

function loadRefund(store: Store, id: string) {
  const refund = store.get('refund', id);
  if (!refund) throw notFound();
  return refund;
}

/**
 * As the service: the notes sent are merged into the record's (a key sent again takes its new value,
 * the others stay), and the record may not end up with more pairs than a create would take.
 */
function mergeNotes<T extends StoredRecord & { notes: Notes }>(store: Store, record: T, notes: Notes): T {
  const merged = { ...record.notes, ...notes };
  if (Object.keys(merged).length > LIMITS.notesPairs)
    throw new SandboxError(`notes may not have more than ${LIMITS.notesPairs} items`, 400, 'notes');
  record.notes = merged;
  // The record's due work (a capture window) stays as it was: only its notes changed.
  store.update(record);
  return record;
}

export const getOrder = ({ store, params }: RouteContext<'getOrder'>) => publicView(loadOrder(store, params.id!));

/** Every payment attempt on the order, most recent first. */
export function orderPayments({ store, params }: RouteContext<'listOrderPayments'>) {
  const order = loadOrder(store, params.id!);
  return collection(store.list('payment', { ...ALL_ATTEMPTS, parent: order.id }));
}

export const editOrder = ({ store, params, body }: RouteContext<'editOrder'>) =>
  publicView(store.tx(() => mergeNotes(store, loadOrder(store, params.id!), body.notes)));

export const editPayment = ({ store, params, body }: RouteContext<'editPayment'>) =>
  publicView(store.tx(() => mergeNotes(store, loadPayment(store, params.id!), body.notes)));

export function paymentRefund({ store, params }: RouteContext<'getPaymentRefund'>) {
  const payment = loadPayment(store, params.id!);
  const refund = loadRefund(store, params.refund_id!);
  if (refund.payment_id !== payment.id) throw notFound();
  return publicView(refund);
}

export const editRefund = ({ store, params, body }: RouteContext<'editRefund'>) =>
  publicView(store.tx(() => mergeNotes(store, loadRefund(store, params.id!), body.notes)));
