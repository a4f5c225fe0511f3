import type * as z from 'zod/mini';
import * as req from './requests';
import * as res from './resources';
import { customerEndpoints } from './customer-endpoints';
import { billingEndpoints } from './billing-endpoints';
import { readEndpoints } from './served';

/**
 * The 17 documented endpoints (spec section 4), and the real service's refund reads
 * (`GET /refunds`, `/refunds/:id`, `/payments/:id/refunds`), which reconciliation reads by identity, and the
 * everyday reads and note edits of orders, payments and refunds (`PATCH` changes notes only). `moves` marks money movement: such a request is
 * confirmed before sending and is never resent after an ambiguous failure.
 */
/** GET reads; every other method writes and carries a JSON body. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

export interface Endpoint {
  method: Method;
  path: string;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
  moves?: boolean;
  /** Its rows are not records newest first (no `id`): pages are walked by offset alone. */
  offsetOrdered?: boolean;
}

const define = <T extends Record<string, Endpoint>>(table: T) => table;

export const endpoints = define({
  listOrders: { method: 'GET', path: '/orders', query: req.OrderListQuery, response: res.collectionOf(res.Order) },
  createOrder: { method: 'POST', path: '/orders', body: req.OrderCreateBody, response: res.Order },
  getOrder: { method: 'GET', path: '/orders/:id', response: res.Order },
  listOrderPayments: { method: 'GET', path: '/orders/:id/payments', response: res.collectionOf(res.Payment) },
  editOrder: { method: 'PATCH', path: '/orders/:id', body: req.NotesEditBody, response: res.Order },
  editPayment: { method: 'PATCH', path: '/payments/:id', body: req.NotesEditBody, response: res.Payment },
  getPaymentRefund: { method: 'GET', path: '/payments/:id/refunds/:refund_id', response: res.Refund },
  editRefund: { method: 'PATCH', path: '/refunds/:id', body: req.NotesEditBody, response: res.Refund },
  createPlan: { method: 'POST', path: '/plans', body: req.PlanCreateBody, response: res.Plan },
  createSubscription: {
    method: 'POST',
    path: '/subscriptions',
    body: req.SubscriptionCreateBody,
    response: res.Subscription,
  },
  getSubscription: { method: 'GET', path: '/subscriptions/:id', response: res.Subscription },
  cancelSubscription: {
    method: 'POST',
    path: '/subscriptions/:id/cancel',
    body: req.SubscriptionCancelBody,
    response: res.Subscription,
  },
  getPayment: { method: 'GET', path: '/payments/:id', response: res.Payment },
  capturePayment: {
    method: 'POST',
    path: '/payments/:id/capture',
    body: req.CaptureBody,
    response: res.Payment,
    moves: true,
  },
  listPayments: {
    method: 'GET',
    path: '/payments',
    query: req.PaymentListQuery,
    response: res.collectionOf(res.Payment),
  },
  listRefunds: { method: 'GET', path: '/refunds', query: req.RefundListQuery, response: res.collectionOf(res.Refund) },
  getRefund: { method: 'GET', path: '/refunds/:id', response: res.Refund },
  listPaymentRefunds: {
    method: 'GET',
    path: '/payments/:id/refunds',
    query: req.RefundListQuery,
    response: res.collectionOf(res.Refund),
  },
  transferPayment: {
    method: 'POST',
    path: '/payments/:id/transfers',
    body: req.PaymentTransferBody,
    response: res.Transfer,
    moves: true,
  },
  createWalletPayment: {
    method: 'POST',
    path: '/payments/create/openwallet',
    body: req.WalletPaymentBody,
    response: res.WalletPayment,
    moves: true,
  },
  refundPayment: {
    method: 'POST',
    path: '/payments/:id/refund',
    body: req.RefundBody,
    response: res.Refund,
    moves: true,
  },
  createDirectTransfer: {
    method: 'POST',
    path: '/transfers',
    body: req.DirectTransferBody,
    response: res.Transfer,
    moves: true,
  },
  createFundAccount: { method: 'POST', path: '/fund_accounts', body: req.FundAccountBody, response: res.FundAccount },
  createPayout: {
    method: 'POST',
    path: '/customers/:id/payouts',
    body: req.PayoutBody,
    response: res.Payout,
    moves: true,
  },
  getWalletBalance: { method: 'GET', path: '/customers/:id/balance', response: res.WalletBalance },
  getWalletStatement: {
    method: 'GET',
    path: '/customers/:id/statement',
    query: req.StatementQuery,
    response: res.collectionOf(res.CustomerTransaction),
  },
  ...billingEndpoints,
  ...customerEndpoints,
  ...readEndpoints(),
  listSettlements: {
    method: 'GET',
    path: '/settlements',
    query: req.SettlementListQuery,
    response: res.collectionOf(res.Settlement),
  },
  getSettlement: { method: 'GET', path: '/settlements/:id', response: res.Settlement },
  settlementRecon: {
    method: 'GET',
    path: '/settlements/recon/combined',
    query: req.SettlementReconQuery,
    response: res.collectionOf(res.ReconEntry),
    offsetOrdered: true,
  },
});

export type EndpointName = keyof typeof endpoints;

/** The endpoints whose answer is a collection (a page of items): the lists, walked page by page. */
export type CollectionEndpoint = {
  [N in EndpointName]: z.output<(typeof endpoints)[N]['response']> extends { entity: 'collection'; items: unknown[] }
    ? N
    : never;
}[EndpointName];

/** What a caller may hand an endpoint as its body or query: the schema's input type. */
type InputOf<N extends EndpointName, K extends 'body' | 'query'> = N extends N
  ? (typeof endpoints)[N] extends { [k in K]: infer S extends z.ZodMiniType }
    ? z.input<S>
    : never
  : never;
export type BodyOf<N extends EndpointName> = InputOf<N, 'body'>;
export type QueryOf<N extends EndpointName> = InputOf<N, 'query'>;

export { endpointPath, matchPath } from './paths';
