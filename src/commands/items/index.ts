import { LIMITS } from '../../contract/limits';
import { group, pageOptions, pick, tool, verb } from '../declare';
import { listOptions } from '../options';

/** The `items` commands: the catalogue's products and services, read only. */
export const items = group(
  'items',
  'list and fetch catalogue items (products and services with their tax codes)',
  () => import('./handlers'),
  (items, bind, run) => {
    listOptions(
      verb(items, 'list', 'list items, most recent first', [
        'payctl items list',
        'payctl items list --all -o csv --fields id,name,amount,hsn_code,sac_code,tax_rate',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) => list,
    ).action(bind(run('listItems'), ({ opts }) => pageOptions(opts)));
    verb(items, 'get', 'fetch items by id: one, many, or a file of them (streamed in input order)', [
      'payctl items get item_7Oxp4hmm6T4SCn',
      'payctl items get item_7Oxp4hmm6T4SCn -o json | jq .amount',
      'payctl items list --all -o ndjson | payctl items get --input - -o csv',
    ])
      .argument('[id...]', 'item id (item_…)')
      .option('--input <file>', "ids to read: one a line, or payctl's own JSON, NDJSON or CSV output; - for stdin")
      .option('--concurrency <n>', 'requests in flight at once for many ids, 1-64 (default 16)')
      .action(bind(run('getItem'), ({ args: [ids], opts }) => ({ ids, ...pick(opts, 'input', 'concurrency') })));
    tool(items, 'list', 'listItems', 'from', 'to', 'count', 'skip');
    tool(items, 'get', 'getItem', 'id:item_id');
  },
);
