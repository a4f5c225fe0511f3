import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { PassThrough, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import type { IO } from '../../src/commands/context';

// One payctl invocation, in this process or as one of its own, and the secret scan of what it wrote.

export const BIN = fileURLToPath(new URL('../../bin/payctl.js', import.meta.url));

/**
 * Every key secret the suite hands to payctl, and its Basic-auth form. Everything payctl writes in any
 * e2e test (stdout, stderr, files it leaves under its home) is checked against them.
 */
const SECRETS = new Set<string>();

export function registerSecret(secret: string | undefined, keyId?: string) {
  if (!secret || secret.length < 8) return;
  SECRETS.add(secret);
  if (keyId) SECRETS.add(Buffer.from(`${keyId}:${secret}`).toString('base64'));
}

/** Throws if `text` holds a registered secret. */
export function assertNoSecret(text: string, where: string) {
  for (const secret of SECRETS) if (text.includes(secret)) throw new Error(`a key secret leaked into ${where}`);
}

/** Files payctl left under its home, except the two that must hold the secret: the 0600 config and the sandbox's own database. */
export function assertNoSecretInFiles(dir: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) assertNoSecretInFiles(path);
    else if (entry.isFile() && entry.name !== 'config.json' && !/\.db(-wal|-shm)?$/.test(entry.name))
      assertNoSecret(readFileSync(path, 'latin1'), path);
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
}

/**
 * What a test that builds a child's environment from scratch still passes on: the moved clock of a run
 * under libfaketime (scripts/any-day.sh), so every process reads the same time.
 */
export function clockEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if ((k === 'LD_PRELOAD' || k.startsWith('FAKETIME') || k === 'DONT_FAKE_MONOTONIC') && v !== undefined) out[k] = v;
  return out;
}

/** Environment with nothing from the developer's own payctl set-up. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PAYCTL_') && v !== undefined) env[k] = v;
  delete env.FORCE_COLOR;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Text written to a stream, kept as it comes (decoded across chunk boundaries); `onText` hears each write. */
class Collected extends Writable {
  text = '';
  onText?: () => void;
  private decoder = new StringDecoder('utf8');
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void) {
    this.text += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    this.onText?.();
    done();
  }
}

type Main = (argv: string[], io: IO, env: NodeJS.ProcessEnv) => Promise<number>;
const CLI = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
let cli: Promise<Main> | undefined;

/**
 * payctl's own entry, `main(argv, io, env)`, from the build the binary runs (dist/cli.cjs, required by Node
 * itself, as bin/payctl.js does), with streams of its own: stdin holds `input` and is
 * then closed, no stream is a terminal, `env` is all it reads of the environment, and `interrupt` is
 * its Ctrl-C. It installs no signal handler and never exits.
 */
export function inProcess(args: string[], env: NodeJS.ProcessEnv, input: string | undefined, interrupt: AbortSignal) {
  const stdout = new Collected();
  const stderr = new Collected();
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const io: IO = { stdout, stderr, stdin, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, interrupt };
  cli ??= Promise.resolve((createRequire(import.meta.url)(CLI) as { main: Main }).main);
  const code = cli.then((main) => main(args, io, env));
  return { stdout, stderr, code };
}

/** Throws if payctl's output holds a key secret the suite handed it. */
function scanned(args: string[], res: RunResult): RunResult {
  assertNoSecret(res.stdout, `stdout of payctl ${args.join(' ')}`);
  assertNoSecret(res.stderr, `stderr of payctl ${args.join(' ')}`);
  return res;
}

/**
 * One payctl invocation, in this process (see inProcess): what most tests want, in a fraction of a
 * process's time. Where the process itself is the point (signals, terminals, pipes, the package, start-up,
 * argv), use runProcess.
 */
export async function run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  registerSecret(opts.env?.PAYCTL_KEY_SECRET, opts.env?.PAYCTL_KEY_ID);
  const ms = opts.timeoutMs ?? 30_000;
  const interrupt = new AbortController();
  const { stdout, stderr, code } = inProcess(args, cleanEnv(opts.env ?? {}), opts.input, interrupt.signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      interrupt.abort();
      reject(new Error(`payctl ${args.join(' ')} did not finish in ${ms} ms\n${stderr.text}`));
    }, ms);
  });
  try {
    const exit = await Promise.race([code, late]);
    return scanned(args, { code: exit, stdout: stdout.text, stderr: stderr.text });
  } finally {
    clearTimeout(timer);
  }
}

/** One payctl invocation as its own process: `node bin/payctl.js ARGS`, stdin a pipe holding `input`. */
export function runProcess(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cleanEnv(opts.env ?? {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    registerSecret(opts.env?.PAYCTL_KEY_SECRET, opts.env?.PAYCTL_KEY_ID);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(scanned(args, { code, stdout, stderr }));
      } catch (err) {
        reject(err);
      }
    });
    child.stdin.end(opts.input ?? '');
  });
}
