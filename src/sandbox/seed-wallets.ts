import { INR } from '../contract';
import type { EndpointName } from '../contract/endpoints';
import { checkout } from './checkout';
import type { RouteContext, SandboxConfig } from './context';
import { accountBalance } from './ledger';
import { createOrder } from './orders';
import { createFundAccount, createPayout, settlePayouts } from './payouts';
import type { PaymentRecord } from './records';
import { newCustomer } from './customers';
import { refund } from './refunds';
import type { Store } from './store';
import { directTransfer } from './transfers';
import { walletPayment } from './wallet';

const HOLDERS = [
  ['Asha Rao', '+919876543210', 'asha@example.com'],
  ['Vikram Shah', '9123456780', 'vikram@example.com'],
] as const;

/** The order of a statement: mostly credits and wallet payments, with refunds and payouts between. */
const PATTERN = ['credit', 'payment', 'credit', 'payment', 'refund', 'payout', 'credit', 'payment'] as const;

/** Days the entries are spread over: several, more for a long statement. */
const daysFor = (entries: number) => Math.min(60, Math.max(3, Math.ceil(entries / 10)));

/** A route of the service, called as a request at sandbox time `now` would call it. */
const route = <E extends EndpointName>(
  store: Store,
  config: SandboxConfig,
  now: number,
  params: Record<string, string>,
  body: RouteContext<E>['body'],
): RouteContext<E> => ({ store, now, config, params, body, query: {} as RouteContext<E>['query'] });

/**
 * Customers with wallets and `entries` statement entries each, spread over several days up to `now`,
 * made through the service's own rules in time order: credits (transfers from the merchant account,
 * which sales fund first), wallet payments of orders, refunds of those back into the wallet, and
 * payouts to a bank account that settle an hour later (one holder's bank rejects them: reversals).
 */
export function seedWallets(store: Store, now: number, config: SandboxConfig, entries: number) {
  const days = daysFor(entries);
  const start = now - days * 86_400;
  const customer_ids: string[] = [];
  HOLDERS.forEach(([name, contact, email], h) => {
    const holder = newCustomer(store, start - 3_600, { name, email, contact });
    customer_ids.push(holder.id);
    const account = bankAccount(store, config, start - 3_600, holder.id, name, h === 1);
    const paid: PaymentRecord[] = [];
    for (let i = 0; i < entries; i++) {
      // Evenly over the days, the two holders a few minutes apart.
      const at = Math.min(now, start + Math.floor(((i + 1) * days * 86_400) / (entries + 1)) + h * 300);
      settlePayouts(store, at);
      const balance = walletOf(store, holder.id);
      const amount = 5_000 + ((i * 7_919 + h * 104_729) % 40) * 2_500;
      let kind: (typeof PATTERN)[number] = PATTERN[i % PATTERN.length]!;
      const refundable = paid.find((p) => p.amount > p.amount_refunded);
      if (kind === 'refund' && !refundable) kind = 'credit';
      if ((kind === 'payment' || kind === 'payout') && balance < 5_000) kind = 'credit';
      const spend = Math.min(amount, Math.floor(balance / 2 / 100) * 100);
      if (kind === 'credit') credit(store, config, at, holder.id, amount, i);
      else if (kind === 'refund') refund(store, at, refundable!, { amount: Math.ceil(refundable!.amount / 2) });
      else if (kind === 'payment') paid.push(payFromWallet(store, config, at, holder.id, spend, contact, email, i));
      else payOut(store, config, at, holder.id, account, spend, i);
    }
  });
  settlePayouts(store, now);
  return { customer_ids, from: start, to: now };
}

const walletOf = (store: Store, id: string) => store.get('customer', id)?._wallet?.balance ?? 0;

function bankAccount(
  store: Store,
  config: SandboxConfig,
  at: number,
  customer_id: string,
  name: string,
  rejected: boolean,
): string {
  const bank_account = { name, ifsc: 'HDFC0001234', account_number: rejected ? '50100020000' : '50100012345' };
  const body = { customer_id, account_type: 'bank_account' as const, bank_account };
  return (createFundAccount(route<'createFundAccount'>(store, config, at, {}, body)) as { id: string }).id;
}

/** A cashback credit; sales are taken first whenever the merchant account could not pay it. */
function credit(store: Store, config: SandboxConfig, at: number, customer_id: string, amount: number, i: number) {
  if (accountBalance(store) < amount) {
    const order = createOrder(store, at - 60, {
      amount: amount * 20,
      currency: INR,
      receipt: `sales-${i + 1}`,
      payment_capture: true,
    });
    checkout(store, at - 60, config.captureWindowSeconds, { order_id: order.id });
  }
  const body = { customer_id, amount, currency: 'INR' as const, notes: { reason: 'cashback' } };
  directTransfer(route<'createDirectTransfer'>(store, config, at, {}, body));
}

function payFromWallet(
  store: Store,
  config: SandboxConfig,
  at: number,
  customer_id: string,
  amount: number,
  contact: string,
  email: string,
  i: number,
): PaymentRecord {
  const order = createOrder(store, at - 30, { amount, currency: INR, receipt: `wallet-${i + 1}` });
  const body = {
    method: 'wallet' as const,
    wallet: 'openwallet' as const,
    customer_id,
    order_id: order.id,
    amount,
    currency: 'INR' as const,
    contact,
    email,
  };
  const made = walletPayment(route<'createWalletPayment'>(store, config, at, {}, body));
  return store.get('payment', made.gateway_payment_id)!;
}

function payOut(
  store: Store,
  config: SandboxConfig,
  at: number,
  id: string,
  fund_account_id: string,
  amount: number,
  i: number,
) {
  const body = {
    fund_account_id,
    amount,
    currency: 'INR' as const,
    purpose: 'payout',
    reference_id: `seed-payout-${i + 1}`,
  };
  createPayout(route<'createPayout'>(store, config, at, { id }, body));
}
