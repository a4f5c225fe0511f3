import { group, verb } from '../declare';

/**
 * The `profile` commands: the group's line in `payctl --help` (all that a run of another group declares of
 * it), the module of its handlers (imported only when one of them runs), and its commands.
 */
export const profile = group(
  'profile',
  'manage key profiles',
  () => import('./handlers'),
  (profile, bind, run) => {
    verb(
      profile,
      'add',
      'add or replace a key profile (the secret is asked for hidden, read from stdin/PAYCTL_KEY_SECRET, or printed by a command at use)',
      [
        "payctl profile add prod --key-id rzp_live_XXXX --base-url https://api.example.com/v1 --live --key-secret-command 'op read op://ops/payments/secret'",
        'payctl profile add prod --key-id rzp_live_XXXX --base-url https://api.example.com/v1 --live',
        'printf %s "$SECRET" | payctl profile add ci --key-id rzp_test_XXXX ' +
          '--base-url https://api.example.com/v1 --key-secret-stdin',
      ],
    )
      .argument('<name>', 'profile name')
      .option('--key-id <id>', 'key id')
      .option('--key-secret-stdin', 'read the key secret from standard input')
      .option(
        '--key-secret-command <cmd>',
        'store this shell command instead of the secret; it prints the secret at use',
      )
      .option(
        '--ca-file <pem>',
        "trust the CAs in this PEM file for the profile's service (in addition to the system's)",
      )
      .option('--live', 'mark as a live profile (bulk runs ask to type its name)')
      .option('--default', 'make it the default profile')
      .action(
        bind(run('addProfile'), ({ args: [name = ''], opts }) => ({
          name,
          keyId: opts.keyId,
          keySecretStdin: Boolean(opts.keySecretStdin),
          keySecretCommand: opts.keySecretCommand,
          caFile: opts.caFile,
          live: Boolean(opts.live),
          makeDefault: Boolean(opts.default),
        })),
      );
    verb(profile, 'list', 'list profiles (secrets masked)', [
      'payctl profile list',
      'payctl profile list -o json',
    ]).action(bind(run('listProfiles'), () => ({})));
    verb(profile, 'use', 'make a profile the default', ['payctl profile use prod', 'payctl profile use sandbox'])
      .argument('<name>', 'profile name')
      .action(bind(run('useProfile'), ({ args: [name = ''] }) => ({ name })));
    verb(profile, 'remove', 'delete a profile', ['payctl profile remove old-test', 'payctl profile remove ci'])
      .argument('<name>', 'profile name')
      .action(bind(run('removeProfile'), ({ args: [name = ''] }) => ({ name })));
    verb(profile, 'show', 'show one profile (secret masked)', [
      'payctl profile show',
      'payctl profile show prod -o json',
    ])
      .argument('[name]', 'profile name (default: the active one)')
      .action(bind(run('showProfile'), ({ args: [name] }) => ({ name })));
    verb(profile, 'test', "check that a profile's key is accepted", ['payctl profile test', 'payctl profile test prod'])
      .argument('[name]', 'profile name (default: the active one)')
      .action(bind(run('testProfile'), ({ args: [name] }) => ({ name })));
  },
);
