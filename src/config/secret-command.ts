import { AuthError } from '../contract/errors';

const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 64 * 1024;
/** After the command exits, how long the pipe gets to deliver what it wrote before exiting. */
const EXITED_GRACE_MS = 100;

interface SecretCommandOptions {
  env: NodeJS.ProcessEnv;
  /** For messages: `profile prod`. */
  source: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const failed = (source: string, what: string) =>
  new AuthError(`the key secret command of ${source} ${what}: nothing was sent (\`payctl profile show\` names it)`);

/**
 * Runs a profile's `key_secret_command` through the shell (as git's credential helpers and AWS's
 * credential_process are run) and returns what it printed, trimmed. The secret travels only through
 * the pipe: never argv, never a file. Its stderr goes to the user's (a secret manager may ask or explain
 * there); its stdin is not payctl's, which may be a bulk input.
 */
export function runSecretCommand(command: string, opts: SecretCommandOptions): Promise<string> {
  const limit = opts.timeoutMs ?? TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = process.getBuiltinModule('node:child_process').spawn(command, {
      shell: true,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'inherit'],
      signal: opts.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    // At the deadline the answer is given at once: a process the command started may hold the pipe open.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      child.stdout.destroy();
      reject(failed(opts.source, `gave no answer within ${limit / 1000}s`));
    }, limit);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT) chunks.push(chunk);
      else child.kill('SIGTERM');
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      if (opts.signal?.aborted) return reject(opts.signal.reason);
      reject(failed(opts.source, `could not be started (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    });
    // Done when the command exits: what it printed until then is the secret. A process it left behind (a
    // secret manager's agent) may hold the pipe open, so 'close' may never come: once the command has
    // exited, the pipe gets a moment to hand over what is already in it, and is then let go.
    let settled = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      child.stdout.destroy();
      clearTimeout(timer);
      const secret = Buffer.concat(chunks).toString('utf8').trim();
      if (size > MAX_OUTPUT) return reject(failed(opts.source, `printed more than ${MAX_OUTPUT / 1024} KiB`));
      if (code !== 0)
        return reject(failed(opts.source, signal ? `was stopped by ${signal}` : `exited with status ${code}`));
      if (!secret) return reject(failed(opts.source, 'printed nothing'));
      if (/[\r\n]/.test(secret)) return reject(failed(opts.source, 'printed more than one line'));
      resolve(secret);
    };
    child.on('exit', (code, signal) => {
      if (child.stdout.readableEnded) return finish(code, signal);
      const grace = setTimeout(() => finish(code, signal), EXITED_GRACE_MS);
      child.stdout.once('end', () => (clearTimeout(grace), finish(code, signal)));
    });
  });
}
