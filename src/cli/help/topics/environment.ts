import { ENVIRONMENT } from '../../environment';
import { example, heading, table, text } from '../topic';
import type { Block, Topic } from '../topic';

const variables: Block[] = ENVIRONMENT.flatMap((group) => [
  heading(group.title),
  table(
    ['variable', 'what it does'],
    group.variables.map((v) => [v.names.map((n) => `\`${n}\``).join(', '), v.what]),
  ),
]);

export const environment: Topic = {
  name: 'environment',
  title: 'Configuration and environment',
  page: 'docs/configuration.md',
  blocks: [
    text(
      'payctl reads its settings from the command line first, then the environment, then the stored profile.',
      'Profiles (`payctl profile add`) live in `config.json` in the config directory, created 0600 and changed',
      'only under a lock, so concurrent `profile add`, `use` and `remove` lose nothing. Global options go before',
      'or after the command; `payctl --help` lists them.',
    ),
    example(
      'printf %s "$KEY_SECRET" | payctl profile add ci --key-id rzp_test_XXXXXXXXXXXXXX --base-url https://api.example.com/v1 --key-secret-stdin',
      'payctl profile list',
      'PAYCTL_PROFILE=ci payctl payments list --from 7d',
    ),
    ...variables,
    heading('Secrets'),
    text(
      'The key secret is never accepted as an argv flag: it comes from a hidden prompt, `--key-secret-stdin`,',
      '`PAYCTL_KEY_SECRET`, or a secret manager. A plain `http://` base URL is refused unless it is loopback',
      '(the sandbox).',
    ),
    text(
      "`profile add NAME --key-secret-command 'CMD'` stores the command, never the secret. When a request needs",
      "the secret, payctl runs CMD through the shell (`sh -c`, as git's credential helpers do) once per process",
      'and takes its standard output, trimmed, as the secret: `op read op://vault/item/field`, `pass show',
      'payments/live`, `vault kv get -field=secret kv/payments`. A command that exits non-zero, prints nothing',
      'or more than one line, or gives no answer within 60 s is one line naming the profile, exit 3, nothing',
      'sent. `profile show` says where the secret comes from.',
    ),
    heading('Proxies'),
    text(
      'An https service is reached through `HTTPS_PROXY` (else `HTTP_PROXY`) by a CONNECT tunnel; the TLS',
      'session is end to end, with the service. A bare `host:port` means `http://host:port`; `user:password@`',
      'in the URL authenticates to the proxy. `NO_PROXY` lists hosts reached directly. The loopback sandbox is',
      'never proxied. `--debug` names the proxy and the variable it came from, credentials shown as `***`. A',
      'proxy that refuses the tunnel or cannot be reached is one line naming it, exit 5: the request never',
      'reached the service.',
    ),
    heading('Company CAs'),
    text(
      '`profile add … --ca-file PEM` and `PAYCTL_CA_FILE` add CAs to the ones Node trusts (its bundled roots',
      'and `NODE_EXTRA_CA_CERTS`), for a TLS-inspecting proxy or a private service. A file that cannot be read',
      'or holds no certificate is exit 2; a certificate the trusted CAs do not verify is one line naming the',
      'host, the TLS reason and the CAs trusted, exit 5, nothing sent.',
    ),
    heading('Time zones'),
    text(
      'A zone named by `--tz` or `PAYCTL_TZ` (an IANA name: `Asia/Kolkata`, `America/New_York`, `UTC`) is used',
      "to read and show times; the process's own `TZ` is never changed, so nothing payctl starts inherits",
      'another one.',
    ),
  ],
};
