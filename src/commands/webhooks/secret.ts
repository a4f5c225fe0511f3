import { readFileSync } from 'node:fs';
import { UsageError } from '../../contract/errors';
import { secretText } from '../../contract/webhooks/secret';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { need } from '../flags';
import { sandboxWebhooks } from './admin';

/**
 * The webhook secret of the sandbox the command talks to (`--sandbox`, `-p sandbox`): the one `sandbox
 * start` printed, which signs every delivery. Never passed in argv.
 */
export async function sandboxWebhookSecret(ctx: Context): Promise<string> {
  const { secret } = await (await sandboxWebhooks(ctx)).secret();
  return need(secretText(secret, "the sandbox's webhook secret"));
}

/** A secret from a file the user names: refused when missing, unreadable, empty or only white space. */
export function secretFromFile(file: string): string {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--secret-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  return need(secretText(raw, `--secret-file ${file}`));
}

/** PAYCTL_WEBHOOK_SECRET when set (an empty one is unset); refused when only white space. */
export const secretFromEnv = (ctx: Context): string | undefined =>
  ctx.settings.webhookSecretEnv === undefined
    ? undefined
    : need(secretText(ctx.settings.webhookSecretEnv, 'PAYCTL_WEBHOOK_SECRET'));

/** The webhook secret a command checks with: --secret-file, else PAYCTL_WEBHOOK_SECRET, else the sandbox's. */
export async function webhookSecretOf(ctx: Context, file?: string): Promise<string> {
  if (file) return secretFromFile(file);
  return secretFromEnv(ctx) ?? sandboxWebhookSecret(ctx);
}

/** A secret as a `.env` line (PAYCTL_WEBHOOK_SECRET=…), for `--print-secret` and `rotate-secret`. */
export const secretLine = (secret: string): CommandResult => ({
  type: 'lines',
  lines: [`PAYCTL_WEBHOOK_SECRET=${secret}`],
  json: { secret },
});
