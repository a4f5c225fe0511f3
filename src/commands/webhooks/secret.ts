import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PayctlPaths } from '../../config/paths';
import type { Context } from '../context';

/** Where the webhook secret of this payctl home lives: one file, readable by its owner only. */
export const secretFile = (paths: PayctlPaths) => join(paths.config, 'webhook-secret');

/**
 * The webhook secret of this payctl home: made once (`whsec_` and 32 random characters) and kept, so a
 * handler's `.env` stays valid across `webhooks listen` runs. Never passed in argv.
 */
export function homeWebhookSecret(paths: PayctlPaths): string {
  const file = secretFile(paths);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(paths.config, { recursive: true });
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another run made it first: theirs is the one.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  chmodSync(file, 0o600);
  return secret;
}

/** The webhook secret a command signs or checks with: --secret-file, else PAYCTL_WEBHOOK_SECRET, else this home's. */
export function webhookSecretOf(ctx: Context, file?: string): string {
  if (file) return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  return ctx.settings.webhookSecretEnv ?? homeWebhookSecret(ctx.paths);
}
