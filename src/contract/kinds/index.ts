import type { KindDeclaration } from './declare';
import { order } from './order';
import { payment } from './payment';
import { refund } from './refund';
import { plan } from './plan';
import { subscription } from './subscription';
import { customer } from './customer';
import { settlement, settlement_recon } from './settlement';
import { customer_transaction, fund_account, payout, transfer, wallet_balance, wallet_payment } from './wallet';
import { bulk_result, event, generic, mcp_log, profile } from './own';

/**
 * Every kind of row payctl shows, each declared once in its own file of this folder (see ./declare.ts).
 * Adding a resource: its file, and its line here.
 */
export const KINDS = {
  order,
  payment,
  refund,
  plan,
  subscription,
  customer,
  settlement,
  settlement_recon,
  transfer,
  fund_account,
  payout,
  customer_transaction,
  wallet_balance,
  wallet_payment,
  profile,
  bulk_result,
  event,
  mcp_log,
  generic,
} satisfies Record<string, KindDeclaration>;

export type ResourceKind = keyof typeof KINDS;

export const kindDeclaration = (kind: ResourceKind): KindDeclaration => KINDS[kind];

/** The kind whose records have this `entity`, or whose list is at this last path segment (`customers`). */
export function kindNamed(name: string): ResourceKind | undefined {
  for (const [kind, d] of Object.entries(KINDS) as [ResourceKind, KindDeclaration][]) {
    if (d.entity === name || d.path === name) return kind;
  }
  return undefined;
}

export type { ColumnSpec, ColumnType, KindDeclaration } from './declare';
