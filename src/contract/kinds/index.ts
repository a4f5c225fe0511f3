import type { KindDeclaration } from './declare';
import { order } from './order';
import { payment } from './payment';
import { refund } from './refund';
import { plan } from './plan';
import { subscription } from './subscription';
import { customer } from './customer';
import { item } from './item';
import { settlement, settlement_recon } from './settlement';
import { customer_transaction, fund_account, payout, transfer, wallet_balance, wallet_payment } from './wallet';
import { bulk_result, event, generic, mcp_log, profile } from './own';

/**
 * Every kind of row payctl shows, each declared once in its own file of this folder (see ./declare.ts).
 * Adding a resource: its file, and its line here. Its id prefix, and for a kind whose `record` is declared
 * its schema, its endpoints (`reads`) and the sandbox's records and routes, derive from this table.
 */
const DECLARED = {
  order,
  payment,
  refund,
  plan,
  subscription,
  customer,
  item,
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

/** Each kind as written, literal types kept: what the types derived from the declarations read. */
export type Declared = typeof DECLARED;
export type ResourceKind = keyof Declared;
export const KINDS: { readonly [K in ResourceKind]: KindDeclaration } = DECLARED;

/** The kinds whose ids payctl checks, by their prefix. */
export type IdKind = { [K in ResourceKind]: Declared[K] extends { idPrefix: string } ? K : never }[ResourceKind];
/** The kinds whose records are declared here (`record`): their schemas and types derive from it. */
export type RecordKind = {
  [K in ResourceKind]: Declared[K] extends { record: object } ? K : never;
}[ResourceKind];
/** The kinds whose records are declared here and that the service reads at `GET /{path}` and `/{path}/:id`. */
export type ReadKind = {
  [K in ResourceKind]: Declared[K] extends { reads: true; record: object } ? K : never;
}[ResourceKind];

/** The kind whose ids start with this prefix (`pay`), if any. */
export function kindOfPrefix(prefix: string): IdKind | undefined {
  for (const [kind, d] of Object.entries(KINDS) as [IdKind, KindDeclaration][]) if (d.idPrefix === prefix) return kind;
  return undefined;
}

export const idPrefix = (kind: IdKind): string => KINDS[kind].idPrefix!;

export const kindDeclaration = (kind: ResourceKind): KindDeclaration => KINDS[kind];

/** The kind whose records have this `entity`, or whose list is at this last path segment (`customers`). */
export function kindNamed(name: string): ResourceKind | undefined {
  for (const [kind, d] of Object.entries(KINDS) as [ResourceKind, KindDeclaration][]) {
    if (d.entity === name || d.path === name) return kind;
  }
  return undefined;
}

export type { ColumnSpec, ColumnType, KindDeclaration } from './declare';
