import type { RouteTable } from './context';
import * as orders from './orders';
import * as payments from './payments';
import * as payouts from './payouts';
import * as edits from './record-edits';
import * as refundReads from './refund-reads';
import * as refunds from './refunds';
import * as settlements from './settlements';
import * as settlementRecon from './settlements-recon';
import * as subscriptions from './subscriptions';
import * as transfers from './transfers';
import * as wallet from './wallet';
import { customerRoutes } from './customers';
import { billingRoutes } from './billing';
import { readRoutes } from './reads';

/** The handler of every endpoint in src/contract/endpoints.ts: a missing one fails typecheck. */
export const routes: RouteTable = {
  listOrders: orders.list,
  createOrder: orders.create,
  getOrder: edits.getOrder,
  listOrderPayments: edits.orderPayments,
  editOrder: edits.editOrder,
  editPayment: edits.editPayment,
  getPaymentRefund: edits.paymentRefund,
  editRefund: edits.editRefund,
  getPayment: payments.get,
  listPayments: payments.list,
  capturePayment: payments.captureRoute,
  refundPayment: refunds.refundRoute,
  listRefunds: refundReads.list,
  getRefund: refundReads.get,
  listPaymentRefunds: refundReads.listOfPayment,
  createPlan: subscriptions.createPlan,
  createSubscription: subscriptions.createSubscription,
  getSubscription: subscriptions.getSubscription,
  cancelSubscription: subscriptions.cancelSubscription,
  transferPayment: transfers.transferPayment,
  createWalletPayment: wallet.walletPayment,
  createDirectTransfer: transfers.directTransfer,
  createFundAccount: payouts.createFundAccount,
  createPayout: payouts.createPayout,
  getWalletBalance: wallet.walletBalance,
  getWalletStatement: wallet.statement,
  ...billingRoutes,
  ...customerRoutes,
  ...readRoutes(),
  listSettlements: settlements.list,
  getSettlement: settlements.get,
  settlementRecon: settlementRecon.recon,
};
