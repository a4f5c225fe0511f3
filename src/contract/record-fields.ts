/** A list of field names written as one string: the lists are long and only the names matter. */
const words = (list: string): string[] => list.split(/\s+/);

/**
 * Every field the service's records of a kind carry (the spec's tables and real payloads), and the
 * ones whose values are objects any key of which may be picked (`notes.reason`). Kept as plain names,
 * apart from the schemas, so that help, columns and `--fields` checks never load the schema library.
 * A resource listed here is a kind payctl shows: its `--fields` are checked against these names, and
 * without columns of its own its table shows them (see src/output/columns.ts).
 */
export const RECORD_FIELDS = {
  order: {
    plain: words('id entity amount amount_paid amount_due currency receipt offer_id status attempts created_at'),
    objects: ['notes'],
  },
  payment: {
    plain: words(`id entity amount currency status order_id invoice_id international method amount_refunded
      refund_status captured description card_id bank wallet vpa email contact customer_id fee tax error_code
      error_description error_source error_step error_reason created_at`),
    objects: ['notes', 'acquirer_data', 'card'],
  },
  refund: {
    plain: words(`id entity amount currency payment_id receipt status speed_processed speed_requested batch_id
      created_at`),
    objects: ['notes', 'acquirer_data'],
  },
  customer_transaction: {
    plain: words(
      'customer_id id entity source status type amount currency credit debit balance description created_at',
    ),
    objects: ['notes'],
  },
} satisfies Record<string, { plain: string[]; objects: string[] }>;

/** A kind of record whose fields the contract lists. */
export type RecordKind = keyof typeof RECORD_FIELDS;
