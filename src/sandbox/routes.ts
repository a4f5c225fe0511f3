import type { EndpointName } from '../contract';
import type { RouteHandler } from './context';
import * as orders from './orders';
import * as payments from './payments';
import * as subscriptions from './subscriptions';
import * as wallet from './wallet';

/** Handlers by endpoint name of src/spec/endpoints.ts: every documented endpoint. */
export const routes: Partial<Record<EndpointName, RouteHandler>> = {
  listOrders: orders.list,
  createOrder: orders.create,
  getPayment: payments.get,
  listPayments: payments.list,
  capturePayment: payments.captureRoute,
  refundPayment: payments.refundRoute,
  createPlan: subscriptions.createPlan,
  createSubscription: subscriptions.createSubscription,
  getSubscription: subscriptions.getSubscription,
  cancelSubscription: subscriptions.cancelSubscription,
  transferPayment: wallet.transferPayment,
  createWalletPayment: wallet.walletPayment,
  createDirectTransfer: wallet.directTransfer,
  createFundAccount: wallet.createFundAccount,
  createPayout: wallet.createPayout,
  getWalletBalance: wallet.walletBalance,
  getWalletStatement: wallet.statement,
};
