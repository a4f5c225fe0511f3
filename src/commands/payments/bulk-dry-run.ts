import type { ApiClient, Prepared } from '../../client/client';
import type { BulkItem, BulkOp } from '../../bulk/input';
import { Totals } from '../../bulk/source';
import type { ItemSource } from '../../bulk/source';
import { paymentProblem, refundable } from '../../contract/rules';
import type { CommandResult } from '../result';
import { amounts } from './bulk-confirm';
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

/** Words for rows whose amount is the service's: never a figure that could be read as money. */
const UNREAD: Record<BulkOp, string> = {
  capture: "each payment's full authorized amount; not read in a dry run (add --read to fetch and total)",
  refund: 'all that remains of each payment; not read in a dry run (add --read to fetch and total)',
};

/** Pure: the dry run's total line: money per currency, and in words what is the service's to say. */
export const dryTotal = (op: BulkOp, total: number, totals: Totals): string =>
  amounts(op, total, totals, UNREAD[op], `${op}(s)`);

/** --read: each payment whose amount the service decides is read, and every amount totalled. */
async function readTotals(
  op: BulkOp,
  source: ItemSource,
  api: ApiClient,
): Promise<{ totals: Totals; skipped: string[] }> {
  const totals = new Totals();
  const skipped: string[] = [];
  for await (const item of source.items()) {
    if (item.amount !== undefined) {
      totals.add(item);
      continue;
    }
    const p = await api.call<Record<string, unknown>>('getPayment', { params: { id: item.id } });
    const problem = paymentProblem(p, item.id);
    if (problem) {
      skipped.push(problem);
      continue;
    }
    const amount = op === 'capture' ? (p.status === 'authorized' ? Number(p.amount) : 0) : refundable(p);
    if (amount > 0) totals.add({ ...item, amount, currency: String(p.currency) });
    else skipped.push(`${item.id}: nothing to ${op} (status ${String(p.status)})`);
  }
  return { totals, skipped };
}

/** What a bulk run would send, nothing sent: a table holds them all; other formats stream them. */
export async function bulkDryRun(
  op: BulkOp,
  source: ItemSource,
  api: ApiClient,
  table: boolean,
  read = false,
): Promise<CommandResult> {
  let note = dryTotal(op, source.total, source.totals);
  if (read) {
    const { totals, skipped } = await readTotals(op, source, api);
    note = `${source.total} ${op}(s), total ${totals.money() || 'nothing'} (read from the service now)`;
    if (skipped.length) note += `; ${skipped.length} with nothing to ${op}: ${skipped.slice(0, 3).join('; ')}`;
  }
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
