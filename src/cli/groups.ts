import type { CommandGroup } from '../commands/declare';
import { orders } from '../commands/orders';
import { payments } from '../commands/payments';
import { refunds } from '../commands/refunds';
import { plans } from '../commands/plans';
import { subscriptions } from '../commands/subscriptions';
import { customers } from '../commands/customers';
import { items } from '../commands/items';
import { settlements } from '../commands/settlements';
import { wallet } from '../commands/wallet';
import { api } from '../commands/api';
import { profile } from '../commands/profile';
import { sandbox } from '../commands/sandbox';
import { webhooks } from '../commands/webhooks';
import { mcp } from '../agent/declare';

/**
 * Every command group, in the order of `payctl --help`. Each is declared once in its own folder (see
 * src/commands/declare.ts `group`); the program, help, completions and the bindings test derive from
 * this list. Adding a group: its folder, and its import here and its name below.
 */
export const GROUPS: readonly CommandGroup[] = [
  orders,
  payments,
  refunds,
  plans,
  subscriptions,
  customers,
  items,
  settlements,
  wallet,
  api,
  profile,
  sandbox,
  webhooks,
  mcp(() => GROUPS),
];
