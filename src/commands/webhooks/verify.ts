import { existsSync, readFileSync } from 'node:fs';
import { FailureError, UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { diagnose } from './diagnose';
import { secretFile, webhookSecretOf } from './secret';

export interface VerifyOptions {
  signature: string;
  /** The body as received: a file, or `-` (the default) for stdin. */
  file?: string;
  secretFile?: string;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * The webhook secret, never from argv: --secret-file, else PAYCTL_WEBHOOK_SECRET, else stdin (when the
 * body comes from a file), else this home's webhook secret (the one `webhooks listen` signs with).
 */
async function webhookSecret(opts: VerifyOptions, ctx: Context, bodyFromStdin: boolean): Promise<string> {
  if (!opts.secretFile && !ctx.settings.webhookSecretEnv && !bodyFromStdin && !ctx.io.stdinIsTTY) {
    const piped = (await readAll(ctx.io.stdin)).toString('utf8').replace(/\r?\n$/, '');
    if (piped) return piped;
  }
  if (opts.secretFile || ctx.settings.webhookSecretEnv || existsSync(secretFile(ctx.paths)))
    return webhookSecretOf(ctx, opts.secretFile);
  throw new UsageError(
    'no webhook secret: give --secret-file FILE, set PAYCTL_WEBHOOK_SECRET, or pipe it on stdin with the body in FILE',
  );
}

/** The key secret of the active credentials, to recognise a signature made with it; none without credentials. */
async function keySecret(ctx: Context): Promise<string | undefined> {
  try {
    return (await ctx.credentials()).keySecret;
  } catch {
    return undefined;
  }
}

/** Checks a signature against the bytes a handler received; when it fails, names the likely cause. */
export async function verifySignature(opts: VerifyOptions, ctx: Context): Promise<CommandResult> {
  const fromStdin = opts.file === undefined || opts.file === '-';
  if (fromStdin && ctx.io.stdinIsTTY) throw new UsageError('give the body as FILE, or pipe it on stdin (-)');
  const secret = await webhookSecret(opts, ctx, fromStdin);
  const body = fromStdin ? await readAll(ctx.io.stdin) : readFileSync(opts.file!);
  const result = diagnose(body, opts.signature, secret, await keySecret(ctx));
  if (!result.ok) throw new FailureError(`signature does not match: ${result.cause}`);
  return { type: 'done', message: `signature OK: ${result.how} (${body.length} bytes)` };
}
