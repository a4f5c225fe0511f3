import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
function assertNoSecretInFiles(dir: string) {
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

/** Environment with nothing from the developer's own payctl set-up. */
function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PAYCTL_') && v !== undefined) env[k] = v;
  delete env.FORCE_COLOR;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function run(args: string[], opts: RunOptions = {}): Promise<RunResult> {
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
        assertNoSecret(stdout, `stdout of payctl ${args.join(' ')}`);
        assertNoSecret(stderr, `stderr of payctl ${args.join(' ')}`);
      } catch (err) {
        reject(err);
        return;
      }
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface SandboxProcess {
  baseUrl: string;
  /** Without /v1: what SDKs that add the version themselves are pointed at. */
  origin: string;
  webhookSecret: string;
  keyId: string;
  keySecret: string;
  home: string;
  /** Environment for a payctl run against this sandbox (ad-hoc profile from the environment). */
  env: Record<string, string>;
  admin<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** A call to the service's own /v1 API, as a script would make it. */
  api<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
  /** Sends a signal and waits for the process to end (the home directory stays). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `payctl sandbox start --port 0 --db :memory: -o json`, reading its first stdout line. */
export async function startSandbox(
  extraArgs: string[] = [],
  home = mkdtempSync(join(tmpdir(), 'payctl-e2e-')),
): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', 'start', '--port', '0', '--db', ':memory:', '-o', 'json', ...extraArgs],
    {
      env: cleanEnv({ PAYCTL_HOME: home }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${stderr}`)));
  });
  // `sandbox start` prints its own generated keys by design (they open only this local sandbox); it
  // is the one output the secret scan leaves alone. Everything after it is scanned.
  const info = JSON.parse(first) as {
    base_url: string;
    origin: string;
    key_id: string;
    key_secret: string;
    webhook_secret: string;
  };
  registerSecret(info.key_secret, info.key_id);
  const origin = info.origin;
  const auth = 'Basic ' + Buffer.from(`${info.key_id}:${info.key_secret}`).toString('base64');
  return {
    baseUrl: info.base_url,
    origin,
    webhookSecret: info.webhook_secret,
    keyId: info.key_id,
    keySecret: info.key_secret,
    home,
    env: {
      PAYCTL_HOME: home,
      PAYCTL_BASE_URL: info.base_url,
      PAYCTL_KEY_ID: info.key_id,
      PAYCTL_KEY_SECRET: info.key_secret,
      PAYCTL_TZ: 'Asia/Kolkata',
    },
    // A fresh connection per call: a test that blocks its event loop (a synchronous read-back) can
    // otherwise reuse a keep-alive socket the sandbox has just closed as idle ("other side closed").
    async admin(method, path, body) {
      const res = await fetch(`${origin}/_sandbox${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json', connection: 'close' },
        body: body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body),
      });
      return (await res.json()) as never;
    },
    async api(method, path, body) {
      const res = await fetch(`${info.base_url}${path}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json', connection: 'close' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as never };
    },
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      try {
        assertNoSecretInFiles(home);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  };
}

/** Runs payctl against the sandbox with JSON output and parses stdout. */
export async function runJson<T = Record<string, unknown>>(sb: SandboxProcess, args: string[], opts: RunOptions = {}) {
  const res = await run(['-o', 'json', ...args], { ...opts, env: { ...sb.env, ...opts.env } });
  let data: T | undefined;
  try {
    data = res.stdout.trim() ? (JSON.parse(res.stdout) as T) : undefined;
  } catch {
    data = undefined;
  }
  return { ...res, data };
}
