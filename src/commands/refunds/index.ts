import { Option } from '@commander-js/extra-typings';
import { LIMITS } from '../../contract/limits';
import { group, pageOptions, tool, verb } from '../declare';
import { listOptions } from '../options';

/**
 * The `refunds` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const refunds = group(
  'refunds',
  'list and fetch refunds',
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
    verb(refunds, 'get', 'fetch one refund', [
      'payctl refunds get rfnd_FP8QHiV938haTz',
      'payctl refunds get rfnd_FP8QHiV938haTz --fields id,payment_id,amount,status,notes.reason',
    ])
      .argument('<id>', 'refund id (rfnd_…)')
      .action(bind(run('getRefund'), ({ args }) => ({ id: args[0]! })));
    tool(refunds, 'list', 'listRefunds', 'payment:payment_id', 'from', 'to', 'count', 'skip');
    tool(refunds, 'get', 'getRefund', 'id:refund_id');
  },
);
