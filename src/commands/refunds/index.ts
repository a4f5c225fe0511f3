import { Option } from '@commander-js/extra-typings';
import { LIMITS } from '../../contract/limits';
import { group, pageOptions, pick, tool, verb } from '../declare';
import { listOptions, noteOption } from '../options';

/**
 * The `refunds` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const refunds = group(
  'refunds',
  'list, fetch and annotate refunds',
  () => import('./handlers'),
  (refunds, bind, run) => {
    listOptions(
      verb(refunds, 'list', 'list refunds (all, or of one payment), most recent first', [
        'payctl refunds list --from 7d',
        'payctl refunds list --payment pay_29QQoUBi66xm2f -o json',
        'payctl refunds list --from 2024-04-01 --to 2024-04-30 --tz Asia/Kolkata --out april-refunds.xlsx',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) => list.addOption(new Option('--payment <id>', "only this payment's refunds (pay_…)")),
    ).action(bind(run('listRefunds'), ({ opts }) => ({ ...pageOptions(opts), payment: opts.payment })));
    verb(refunds, 'get', 'fetch refunds by id: one, many, or a file of them (streamed in input order)', [
      'payctl refunds get rfnd_FP8QHiV938haTz',
      'payctl refunds get rfnd_FP8QHiV938haTz --fields id,payment_id,amount,status,notes.reason',
      'payctl refunds list --from 7d -o ndjson | payctl refunds get --input - -o csv',
    ])
      .argument('[id...]', 'refund id (rfnd_…)')
      .option('--input <file>', "ids to read: one a line, or payctl's own JSON, NDJSON or CSV output; - for stdin")
      .option('--concurrency <n>', 'requests in flight at once for many ids, 1-64 (default 16)')
      .action(bind(run('getRefund'), ({ args: [ids], opts }) => ({ ids, ...pick(opts, 'input', 'concurrency') })));
    verb(refunds, 'edit', "merge notes into a refund's (notes are all the service lets change)", [
      'payctl refunds edit rfnd_FP8QHiV938haTz --note ticket=SUP-1234',
      'payctl refunds edit rfnd_FP8QHiV938haTz --note reason=damaged --note agent=priya -o json',
    ])
      .argument('<id>', 'refund id (rfnd_…)')
      .addOption(noteOption(`note to set (repeatable; the refund keeps at most ${LIMITS.notesPairs})`))
      .action(bind(run('editRefund'), ({ args: [id], opts }) => ({ id, notes: opts.note ?? [] })));
    tool(refunds, 'list', 'listRefunds', 'payment:payment_id', 'from', 'to', 'count', 'skip');
    tool(refunds, 'get', 'getRefund', 'id:refund_id');
  },
);
