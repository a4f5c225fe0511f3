import { INR, LIMITS } from '../contract';
import { SandboxError, notFound } from './errors';
import { newId } from './ids';
import type { CustomerRecord, CustomerTransactionRecord, Wallet } from './records';
import type { Store } from './store';

/** The wallet's ceiling, as for a full-KYC prepaid wallet: ₹2,00,000. */
export const MAX_BALANCE = 20_000_000;

const monthOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 7);

/** +91 / 91 / 0 prefix optional, then 10 digits starting 6 to 9; spaces and dashes forgiven. */
export function isIndianMobile(contact: unknown): boolean {
  return typeof contact === 'string' && /^(\+91|91|0)?[6-9]\d{9}$/.test(contact.replace(/[\s-]/g, ''));
}

export function customer(store: Store, id: string, field = 'customer_id'): CustomerRecord {
  const found = store.get('customer', id);
  if (!found) throw new SandboxError(`The customer ${id} does not exist`, 400, field);
  return found;
}

const noWalletYet = (id: string, field: string) =>
  new SandboxError(`Customer ${id} has no wallet yet: it is created by the first transfer to it`, 400, field);

/** The wallet, created on its first credit, and only for a valid Indian mobile number (spec 4.10). */
function openWallet(holder: CustomerRecord): Wallet {
  if (holder._wallet) return holder._wallet;
  if (!isIndianMobile(holder.contact)) {
    const contact = JSON.stringify(holder.contact);
    throw new SandboxError(
      `A wallet cannot be created for customer ${holder.id}: contact ${contact} is not a valid Indian mobile number`,
      400,
      'customer',
    );
  }
  holder._wallet = { balance: 0, monthly_usage: 0, month: '' };
  return holder._wallet;
}

export interface Movement {
  type: string;
  source: string;
  credit?: number;
  debit?: number;
  description: string;
}

/** Moves money in or out of a customer's wallet and writes the statement entry with the balance after it. */
export function move(store: Store, now: number, holder: CustomerRecord, movement: Movement): CustomerTransactionRecord {
  const credit = movement.credit ?? 0;
  const debit = movement.debit ?? 0;
  const wallet = credit ? openWallet(holder) : holder._wallet;
  if (!wallet) throw noWalletYet(holder.id, 'customer_id');
  if (debit > wallet.balance) {
    throw new SandboxError(
      'Insufficient wallet balance: the customer must load enough balance first ' +
        `(balance ${wallet.balance}, needed ${debit})`,
      400,
      'amount',
    );
  }
  if (wallet.balance + credit - debit > MAX_BALANCE) {
    throw new SandboxError(`The wallet balance would exceed its maximum of ${MAX_BALANCE} paise`, 400, 'amount');
  }
  const month = monthOf(now);
  if (wallet.month !== month) {
    wallet.month = month;
    wallet.monthly_usage = 0;
  }
  wallet.balance += credit - debit;
  wallet.monthly_usage += debit;
  store.update(holder);
  return store.insert<CustomerTransactionRecord>(
    {
      id: newId('ctxn'),
      entity: 'customer_transaction',
      source: movement.source,
      status: 'completed',
      type: movement.type,
      amount: credit || debit,
      currency: INR,
      credit,
      debit,
      balance: wallet.balance,
      description: movement.description.slice(0, LIMITS.descriptionChars),
      created_at: now,
    },
    { parent: holder.id },
  );
}

export function balance(store: Store, id: string) {
  const holder = store.get('customer', id);
  if (!holder) throw notFound();
  const wallet = holder._wallet;
  if (!wallet) throw noWalletYet(id, 'id');
  return {
    entity: 'wallet_balance',
    customer_id: id,
    balance: wallet.balance,
    monthly_usage: wallet.month === '' ? 0 : wallet.monthly_usage,
    max_balance: MAX_BALANCE,
  };
}

/** The merchant account: what was captured, less what was refunded and transferred out. */
export const accountBalance = (store: Store): number =>
  store.appliedBalance() - store.sumAmount('transfer', 'processed');
