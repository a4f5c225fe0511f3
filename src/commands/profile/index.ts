import type { Command } from 'commander';
import type { Bind } from '../bind';
import { examples } from '../declare';

/** The `profile` commands. */
/** The group's line in `payctl --help`, which declares no more than that. */
export const summary = 'manage key profiles';

export function declareProfile(program: Command, bind: Bind) {
  const profile = program.command('profile').description(summary);
  profile
    .command('add')
    .description('add or replace a key profile (the secret is asked for hidden, or read from stdin/PAYCTL_KEY_SECRET)')
    .argument('<name>', 'profile name')
    .option('--key-id <id>', 'key id')
    .option('--key-secret-stdin', 'read the key secret from standard input')
    .option('--live', 'mark as a live profile (bulk runs ask to type its name)')
    .option('--default', 'make it the default profile')
    .addHelpText(
      'after',
      examples(
        'payctl profile add prod --key-id rzp_live_XXXX --base-url https://api.example.com/v1 --live',
        'printf %s "$SECRET" | payctl profile add ci --key-id rzp_test_XXXX ' +
          '--base-url https://api.example.com/v1 --key-secret-stdin',
      ),
    )
    .action(
      bind(
        async () => (await import('./handlers')).addProfile,
        ({ args: [name = ''], opts }) => ({
          name,
          keyId: opts.keyId,
          keySecretStdin: Boolean(opts.keySecretStdin),
          live: Boolean(opts.live),
          makeDefault: Boolean(opts.default),
        }),
      ),
    );
  profile
    .command('list')
    .description('list profiles (secrets masked)')
    .addHelpText('after', examples('payctl profile list', 'payctl profile list -o json'))
    .action(
      bind(
        async () => (await import('./handlers')).listProfiles,
        () => ({}),
      ),
    );
  profile
    .command('use')
    .description('make a profile the default')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('payctl profile use prod', 'payctl profile use sandbox'))
    .action(
      bind(
        async () => (await import('./handlers')).useProfile,
        ({ args: [name = ''] }) => ({ name }),
      ),
    );
  profile
    .command('remove')
    .description('delete a profile')
    .argument('<name>', 'profile name')
    .addHelpText('after', examples('payctl profile remove old-test', 'payctl profile remove ci'))
    .action(
      bind(
        async () => (await import('./handlers')).removeProfile,
        ({ args: [name = ''] }) => ({ name }),
      ),
    );
  profile
    .command('show')
    .description('show one profile (secret masked)')
    .argument('[name]', 'profile name (default: the active one)')
    .addHelpText('after', examples('payctl profile show', 'payctl profile show prod -o json'))
    .action(
      bind(
        async () => (await import('./handlers')).showProfile,
        ({ args: [name] }) => ({ name }),
      ),
    );
  profile
    .command('test')
    .description("check that a profile's key is accepted")
    .argument('[name]', 'profile name (default: the active one)')
    .addHelpText('after', examples('payctl profile test', 'payctl profile test prod'))
    .action(
      bind(
        async () => (await import('./handlers')).testProfile,
        ({ args: [name] }) => ({ name }),
      ),
    );
}
