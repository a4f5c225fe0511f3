import { LIMITS } from '../../contract/limits';
import { group, pageOptions, pick, tool, verb } from '../declare';
import { listOptions, noteOption, withNotes } from '../options';

/**
 * The `customers` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const customers = group(
  'customers',
  'customers (the wallet commands take their ids)',
  () => import('./handlers'),
  (customers, bind, run) => {
    listOptions(
      verb(customers, 'list', 'list customers, most recent first', [
        'payctl customers list',
        'payctl customers list --all -o csv --fields id,name,email,contact',
      ]),
      `items in one page, 1-${LIMITS.count} (service default 10)`,
      (list) => list,
    ).action(bind(run('listCustomers'), ({ opts }) => pageOptions(opts)));
    verb(customers, 'get', 'fetch a customer', [
      'payctl customers get cust_4xbQrmEoA5q1fP',
      'payctl customers get cust_4xbQrmEoA5q1fP -o json | jq .email',
    ])
      .argument('<id>', 'customer id (cust_…)')
      .action(bind(run('getCustomer'), ({ args }) => ({ id: args[0]! })));
    verb(
      customers,
      'create',
      'create a customer; one with the same e-mail and phone is returned instead (unless --fail-existing)',
      [
        'payctl customers create --name "Asha Rao" --email asha@example.com --contact +919876543210',
        'payctl customers create --name "Vikram Shah" --contact 9123456780 --gstin 29ABCDE1234F1Z5 --note tier=gold',
        'payctl customers create --name "Meera Iyer" --email meera@example.com --fail-existing -o json',
      ],
    )
      .requiredOption('--name <name>', 'name, up to 50 characters')
      .option('--email <email>', 'e-mail address')
      .option('--contact <phone>', 'phone number, 8-15 digits, e.g. +919876543210')
      .option('--gstin <gstin>', 'GST identification number (15 characters)')
      .addOption(noteOption())
      .option('--fail-existing', 'refuse (exit 1) when a customer with this e-mail and phone exists')
      .action(
        bind(run('createCustomer'), ({ opts }) => ({
          ...withNotes(opts, 'name', 'email', 'contact', 'gstin'),
          failExisting: Boolean(opts.failExisting),
        })),
      );
    verb(customers, 'edit', "change a customer's name, e-mail or phone", [
      'payctl customers edit cust_4xbQrmEoA5q1fP --email asha.rao@example.com',
      'payctl customers edit cust_4xbQrmEoA5q1fP --name "Asha R." --contact +919876543211',
    ])
      .argument('<id>', 'customer id (cust_…)')
      .option('--name <name>', 'new name')
      .option('--email <email>', 'new e-mail address')
      .option('--contact <phone>', 'new phone number')
      .action(
        bind(run('editCustomer'), ({ args, opts }) => ({ id: args[0]!, ...pick(opts, 'name', 'email', 'contact') })),
      );
    tool(customers, 'list', 'listCustomers', 'from', 'to', 'count', 'skip');
    tool(customers, 'get', 'getCustomer', 'id:customer_id');
  },
);
