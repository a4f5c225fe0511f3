import { err, ok } from './result';
import type { Result } from './result';

const ID_PREFIX = {
  payment: 'pay_',
  order: 'order_',
  customer: 'cust_',
  plan: 'plan_',
  subscription: 'sub_',
  fund_account: 'fa_',
  refund: 'rfnd_',
  transfer: 'trf_',
  payout: 'pout_',
  settlement: 'setl_',
} as const;

type IdKind = keyof typeof ID_PREFIX;

/** An id as pasted: surrounding whitespace is forgiven, anything that could change the URL path is not. */
export function parseId(raw: string, kind: IdKind): Result<string> {
  const id = raw.trim();
  const prefix = ID_PREFIX[kind];
  if (new RegExp(`^${prefix}[A-Za-z0-9]{1,40}$`).test(id)) return ok(id);
  return err(
    `${kind.replace('_', ' ')} id must look like ${prefix}XXXXXXXXXXXXXX: ` +
      `got ${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)}`,
  );
}
