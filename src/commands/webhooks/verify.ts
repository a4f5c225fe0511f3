import { readFileSync } from 'node:fs';
import { isLoopback } from '../../client/loopback';
import { FailureError, UsageError } from '../../contract/errors';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { diagnose } from './diagnose';
import { secretText } from '../../contract/webhooks/secret';
import { need } from '../flags';
import { sandboxWebhookSecret, secretFromEnv, secretFromFile } from './secret';

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
 * body comes from a file), else the sandbox's (the one `sandbox start` printed) when the command talks
 * to one. An empty or white-space secret is refused wherever it comes from.
 */
async function webhookSecret(opts: VerifyOptions, ctx: Context, bodyFromStdin: boolean): Promise<string> {
  if (opts.secretFile) return secretFromFile(opts.secretFile);
  const fromEnv = secretFromEnv(ctx);
  if (fromEnv !== undefined) return fromEnv;
  if (!bodyFromStdin && !ctx.io.stdinIsTTY) {
    const piped = (await readAll(ctx.io.stdin)).toString('utf8');
    if (piped) return need(secretText(piped, 'the secret on stdin'));
  }
  const credentials = await ctx.credentials().catch(() => undefined);
  if (credentials && isLoopback(credentials.baseUrl)) return sandboxWebhookSecret(ctx);
  throw new UsageError(
    'no webhook secret: give --secret-file FILE, set PAYCTL_WEBHOOK_SECRET, pipe it on stdin with the body in FILE, ' +
      "or use --sandbox / -p sandbox for the sandbox's",
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
