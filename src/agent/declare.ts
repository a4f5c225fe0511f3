import type { Command } from '@commander-js/extra-typings';
import type { Bind } from '../commands/bind';
import { examples } from '../commands/declare';
import type { CommandGroup } from '../commands/declare';

const summary = 'serve payctl to an AI assistant over the Model Context Protocol, behind money-safety rails';

/**
 * `payctl mcp` and `payctl mcp log`. `groups`: every command group, whose commands marked as tools it serves
 * (given by the program's registry, which this layer does not import).
 */
export const mcp = (groups: () => readonly CommandGroup[]): CommandGroup => ({
  name: 'mcp',
  summary,
  declare: (program, bind) => declareMcp(program as Command, bind, groups),
});

function declareMcp(program: Command, bind: Bind, groups: () => readonly CommandGroup[]) {
  const mcp = program
    .command('mcp')
    .description(summary)
    .option('--allow-writes', 'offer the write tools (each returns a plan; only `confirm` with its token sends it)')
    .option(
      '--allow-live <profile>',
      'writes with a live key (a --live profile, or a key id rzp_live_…) also need its profile name here ' +
        '(environment for PAYCTL_KEY_ID)',
    )
    .option('--max-amount <minor>', 'refuse any write moving more than this, in the smallest currency unit (paise)')
    .option(
      '--max-total <minor>',
      'refuse writes once the session would move more than this in all, smallest currency unit (paise)',
    )
    .option('--max-writes <n>', 'refuse writes after this many in the session')
    .option('--token-ttl <seconds>', 'how long a confirmation token stays good', '300')
    .addHelpText(
      'after',
      examples(
        'payctl mcp --sandbox                                     # read-only tools',
        'payctl mcp -p support --allow-writes --max-amount 50000 --max-total 200000 --max-writes 10',
        'payctl mcp log',
      ),
    )
    .action(
      bind(
        async () => (await import('./serve')).serveMcp,
        ({ opts }) => ({
          allowWrites: Boolean(opts.allowWrites),
          allowLive: opts.allowLive as string | undefined,
          maxAmount: opts.maxAmount as string | undefined,
          maxTotal: opts.maxTotal as string | undefined,
          maxWrites: opts.maxWrites as string | undefined,
          tokenTtl: String(opts.tokenTtl),
          groups: groups(),
        }),
      ),
    );
  mcp
    .command('log')
    .description('print the audit log of writes planned and made through `payctl mcp`')
    .addHelpText('after', examples('payctl mcp log', 'payctl mcp log -o ndjson | jq \'select(.event == "done")\''))
    .action(
      bind(
        async () => (await import('./log')).showLog,
        () => ({}),
      ),
    );
}
