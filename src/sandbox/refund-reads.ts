import type { RouteContext } from './context';
import { notFound } from './errors';
import { loadPayment } from './payments';
import { collection, pageWindow, publicView } from './views';

/** Every refund of the merchant, most recent first. */
export const list = ({ store, query }: RouteContext<'listRefunds'>) =>
  collection(store.list('refund', pageWindow(query)));

export function get({ store, params }: RouteContext<'getRefund'>) {
  const refund = store.get('refund', params.id!);
  if (!refund) throw notFound();
  return publicView(refund);
}

/** The refunds of one payment, most recent first; an unknown payment is refused as a fetch of it is. */
export function listOfPayment({ store, params, query }: RouteContext<'listPaymentRefunds'>) {
  const payment = loadPayment(store, params.id!);
  return collection(store.list('refund', { ...pageWindow(query), parent: payment.id }));
}
