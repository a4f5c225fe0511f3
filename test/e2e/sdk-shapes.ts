/**
 * The SDK's typings (razorpay/dist/types/*.d.ts) of the answers the conformance tests read, as runtime
 * checks: each key with the JavaScript types its declared type allows (`undefined` where it is
 * optional). Where the typings disagree with the real service's own payloads (test/fixtures/real), the
 * real payload's type is allowed too, and the line says which fixture shows it.
 */
type JsType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'undefined';
export interface Shape {
  [key: string]: JsType[] | Shape;
}

const typeOf = (v: unknown): JsType => (v === null ? 'null' : (typeof v as JsType));

/** Where `value` differs from `shape`: one line per key, empty when it conforms. */
export function mismatches(value: unknown, shape: Shape, at = ''): string[] {
  if (typeOf(value) !== 'object') return [`${at || 'answer'} is ${typeOf(value)}, not an object`];
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([key, want]) => {
    const v = record[key];
    if (!Array.isArray(want)) return mismatches(v, want, `${at}${key}.`);
    return want.includes(typeOf(v))
      ? []
      : [`${at}${key} is ${typeOf(v)} (${JSON.stringify(v)}), typed ${want.join(' | ')}`];
  });
}

const notes: JsType[] = ['object', 'undefined'];

/** Items.RazorpayItem */
const item: Shape = {
  id: ['string'],
  name: ['string'],
  amount: ['number', 'string'],
  currency: ['string'],
  description: ['string', 'undefined'],
  unit_amount: ['number'],
  type: ['string'],
  unit: ['number', 'null'],
  tax_inclusive: ['boolean'],
  hsn_code: ['number', 'null'],
  sac_code: ['number', 'null'],
  tax_rate: ['number', 'null'],
  tax_id: ['string', 'null'],
  tax_group_id: ['string', 'null'],
  created_at: ['number'],
  updated_at: ['number'],
  active: ['boolean'],
};

/** Plans.RazorPayPlans */
export const plan: Shape = {
  id: ['string'],
  entity: ['string'],
  created_at: ['number'],
  period: ['string'],
  interval: ['number'],
  notes,
  item,
};

/** Subscriptions.RazorpaySubscription */
export const subscription: Shape = {
  id: ['string'],
  entity: ['string'],
  plan_id: ['string'],
  total_count: ['number'],
  customer_notify: ['boolean', 'number', 'undefined'],
  quantity: ['number', 'undefined'],
  // Typed string | undefined; null in subscription_paused.json and subscription.json.
  offer_id: ['string', 'undefined', 'null'],
  start_at: ['number'],
  // Typed number | undefined; null in subscription_paused.json.
  expire_by: ['number', 'undefined', 'null'],
  notes,
  status: ['string'],
  current_start: ['number', 'null', 'undefined'],
  current_end: ['number', 'null', 'undefined'],
  ended_at: ['number', 'null', 'undefined'],
  // Typed number; null in subscription_paused.json and subscription_cancelled.json.
  charge_at: ['number', 'null'],
  end_at: ['number'],
  auth_attempts: ['number'],
  paid_count: ['number'],
  created_at: ['number'],
  short_url: ['string'],
  has_scheduled_changes: ['boolean'],
  change_scheduled_at: ['number', 'null', 'undefined'],
  source: ['string'],
  // Typed string; a number in subscription_paused.json and subscription_collection.json.
  remaining_count: ['string', 'number'],
  customer_id: ['string', 'null'],
  payment_method: ['string', 'null'],
};

/** The statuses RazorpaySubscription['status'] lists, and `paused`, which pause() answers. */
export const SUBSCRIPTION_STATUSES = [
  'created',
  'authenticated',
  'active',
  'pending',
  'halted',
  'cancelled',
  'completed',
  'expired',
  'paused',
];

/** Customers.RazorpayCustomer */
export const customer: Shape = {
  id: ['string'],
  entity: ['string'],
  created_at: ['number'],
  name: ['string', 'undefined'],
  email: ['string', 'undefined'],
  contact: ['string', 'number', 'undefined'],
  gstin: ['string', 'null', 'undefined'],
  notes,
};

/** What every `all()` answers: `{ entity, count, items }` (plans.all types count as string; real counts are numbers). */
export const collection: Shape = { entity: ['string'], count: ['number', 'string'], items: ['object'] };
