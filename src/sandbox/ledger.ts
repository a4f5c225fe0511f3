import { SandboxError, notFound } from './errors';
import { newId } from './ids';
import type { Row, Store } from './store';

/** The wallet's ceiling, as for a full-KYC prepaid wallet: ₹2,00,000. */
export const MAX_BALANCE = 20_000_000;

interface Wallet {
  balance: number;
  monthly_usage: number;
  month: string;
}

const monthOf = (t: number) => new Date(t * 1000).toISOString().slice(0, 7);

/** +91 / 91 / 0 prefix optional, then 10 digits starting 6 to 9; spaces and dashes forgiven. */
export function isIndianMobile(contact: unknown): boolean {
  return typeof contact === 'string' && /^(\+91|91|0)?[6-9]\d{9}$/.test(contact.replace(/[\s-]/g, ''));
}

export function customer(store: Store, id: string, field = 'customer_id'): Row {
  const c = store.get('customer', id);
  if (!c) throw new SandboxError(`The customer ${id} does not exist`, 400, field);
  return c;
}

export function walletOf(c: Row): Wallet | undefined {
  return c._wallet as Wallet | undefined;
}

/** The wallet, created on its first credit, and only for a valid Indian mobile number (spec 4.10). */
function openWallet(c: Row): Wallet {
  const existing = walletOf(c);
  if (existing) return existing;
  if (!isIndianMobile(c.contact)) {
    throw new SandboxError(
      `A wallet cannot be created for customer ${String(c.id)}: contact ${JSON.stringify(c.contact)} is not a valid Indian mobile number`,
      400,
      'customer',
    );
  }
  const wallet = { balance: 0, monthly_usage: 0, month: '' };
  c._wallet = wallet;
  return wallet;
}

export interface Movement {
  type: string;
  source: string;
  credit?: number;
  debit?: number;
  description: string;
}

/** Moves money in or out of a customer's wallet and writes the statement entry with the balance after it. */
export function move(store: Store, now: number, c: Row, m: Movement): Row {
  const credit = m.credit ?? 0;
  const debit = m.debit ?? 0;
  const wallet = credit ? openWallet(c) : walletOf(c);
  if (!wallet)
    throw new SandboxError(
      `Customer ${String(c.id)} has no wallet yet: it is created by the first transfer to it`,
      400,
      'customer_id',
    );
  if (debit > wallet.balance) {
    throw new SandboxError(
      `Insufficient wallet balance: the customer must load enough balance first (balance ${wallet.balance}, needed ${debit})`,
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
  store.update(c);
  return store.insert(
    {
      id: newId('ctxn'),
      entity: 'customer_transaction',
      source: m.source,
      status: 'completed',
      type: m.type,
      amount: credit || debit,
      currency: 'INR',
      credit,
      debit,
      balance: wallet.balance,
      description: m.description.slice(0, 255),
      created_at: now,
    },
    { parent: String(c.id) },
  );
}

export function balance(store: Store, id: string): Row {
  const c = store.get('customer', id);
  if (!c) throw notFound();
  const wallet = walletOf(c);
  if (!wallet)
    throw new SandboxError(`Customer ${id} has no wallet yet: it is created by the first transfer to it`, 400, 'id');
  return {
    entity: 'wallet_balance',
    customer_id: id,
    balance: wallet.balance,
    monthly_usage: wallet.month === '' ? 0 : wallet.monthly_usage,
    max_balance: MAX_BALANCE,
  };
}

/** The merchant account: what was captured, less what was refunded and transferred out. */
export function accountBalance(store: Store): number {
  const applied = store
    .sql("SELECT COALESCE(SUM(CASE kind WHEN 'capture' THEN amount ELSE -amount END), 0) AS n FROM applied")
    .get() as { n: number };
  const transferred = store
    .sql(
      "SELECT COALESCE(SUM(json_extract(data, '$.amount')), 0) AS n FROM records WHERE entity = 'transfer' AND status = 'processed'",
    )
    .get() as { n: number };
  return applied.n - transferred.n;
}
