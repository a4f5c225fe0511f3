import type { ApiClient, Prepared } from '../../client/client';
import type { BulkItem, BulkOp } from '../../bulk/input';
import type { ItemSource } from '../../bulk/source';
import type { CommandResult } from '../result';
import { captureRequest } from './capture-request';

function request(op: BulkOp, api: ApiClient, item: BulkItem): Prepared {
  if (op === 'refund')
    return api.prepare('refundPayment', {
      params: { id: item.id },
      body: { amount: item.amount, receipt: item.receipt, notes: item.notes },
    });
  const money = item.amount === undefined ? {} : { amount: item.amount, currency: item.currency! };
  return captureRequest(api, item.id, money);
}

/** What a bulk run would send, nothing sent: a table holds them all; other formats stream them. */
export async function bulkDryRun(
  op: BulkOp,
  source: ItemSource,
  api: ApiClient,
  table: boolean,
): Promise<CommandResult> {
  const note = `${source.total} ${op}(s), total ${source.totals.describe()}`;
  if (table) {
    const all: Prepared[] = [];
    try {
      for await (const item of source.items()) all.push(request(op, api, item));
    } finally {
      source.cleanup();
    }
    return { type: 'dry-run', requests: all, note };
  }
  // Made one at a time as they are written: a million rows never become a million request objects at once.
  async function* requests() {
    try {
      for await (const item of source.items()) {
        const { method, url, body } = request(op, api, item);
        yield { method, url, body };
      }
    } finally {
      source.cleanup();
    }
  }
  return {
    type: 'many',
    kind: 'generic',
    items: requests(),
    after: (n) => `dry run: ${n} request(s) shown, nothing sent (${note})`,
  };
}
