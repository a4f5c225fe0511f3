import { col, declare } from './declare';

/** payctl's own rows: profiles, a bulk run's results, sandbox events, the MCP audit log, anything else. */

export const profile = declare({
  columns: [
    col('name'),
    col('key_id'),
    col('key_secret'),
    col('base_url'),
    col('live', 'bool'),
    col('default', 'bool'),
  ],
  table: ['name', 'base_url', 'live', 'default', 'key_id', 'key_secret'],
});

export const bulk_result = declare({
  columns: [
    col('line'),
    col('payment_id'),
    col('result'),
    col('status'),
    col('amount', 'money'),
    col('refund_id'),
    col('reason'),
  ],
  table: ['payment_id', 'result', 'reason', 'status', 'amount', 'refund_id', 'line'],
  currencyAfter: 'amount',
});

export const event = declare({
  columns: [col('created_at', 'time'), col('event'), col('id'), col('delivery'), col('attempts')],
  table: ['created_at', 'event', 'delivery', 'id', 'attempts'],
});

export const mcp_log = declare({
  columns: [
    col('at'),
    col('tool'),
    col('event'),
    col('amount', 'money'),
    col('target'),
    col('result_id'),
    col('message'),
  ],
});

/** Rows of no declared kind: a sample row's keys are the columns. */
export const generic = declare({ columns: [] });
