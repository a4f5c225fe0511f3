import type { EndpointName } from '../spec';
import type { RouteHandler } from './context';
import * as orders from './orders';
import * as payments from './payments';

/** Handlers by endpoint name of src/spec/endpoints.ts; a missing one answers "not implemented". */
export const routes: Partial<Record<EndpointName, RouteHandler>> = {
  listOrders: orders.list,
  createOrder: orders.create,
  getPayment: payments.get,
  listPayments: payments.list,
  capturePayment: payments.captureRoute,
  refundPayment: payments.refundRoute,
};
