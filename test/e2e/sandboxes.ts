import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, assertNoSecretInFiles, cleanEnv, inProcess, registerSecret } from './payctl';

// The sandboxes the e2e tests run against: `payctl sandbox start` in this process, or as a process.

/** The sandbox's own counters (`GET /_sandbox/stats`): requests seen, writes made, and writes applied per payment. */
export interface SandboxStats {
  requests: number;
  writes: { orders: number; captures: number; refunds: number };
  applied: { captures: Record<string, number>; refunds: Record<string, { count: number; amount: number }> };
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
  /** The sandbox's counters now. */
  stats(): Promise<SandboxStats>;
  stop(): Promise<void>;
  /** Sends a signal and waits for the process to end (the home directory stays). */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** What `payctl sandbox start -o json` prints first. */
interface SandboxInfo {
  base_url: string;
  origin: string;
  key_id: string;
  key_secret: string;
  webhook_secret: string;
}

const SANDBOX_ARGS = ['sandbox', 'start', '--port', '0', '--db', ':memory:', '-o', 'json'];
const newHome = () => mkdtempSync(join(tmpdir(), 'payctl-e2e-'));

/**
 * `payctl sandbox start --port 0 --db :memory: -o json …extraArgs`, run in this process (the command
 * itself, flags and all), reading its first stdout line; `stop()` is its Ctrl-C. A test that signals the
 * sandbox, or shares its database with another process, uses startSandboxProcess.
 */
export async function startSandbox(extraArgs: string[] = [], home = newHome()): Promise<SandboxProcess> {
  const interrupt = new AbortController();
  const { stdout, stderr, code } = inProcess(
    [...SANDBOX_ARGS, ...extraArgs],
    cleanEnv({ PAYCTL_HOME: home }),
    '',
    interrupt.signal,
  );
  const first = await new Promise<string>((resolve, reject) => {
    stdout.onText = () => stdout.text.includes('\n') && resolve(stdout.text.split('\n')[0]!);
    code.then((c) => reject(new Error(`sandbox exited early (${c}): ${stderr.text}`)), reject);
  });
  return sandboxOf(JSON.parse(first) as SandboxInfo, home, {
    kill: () => Promise.reject(new Error('an in-process sandbox takes no signal: start it with startSandboxProcess')),
    async end() {
      interrupt.abort();
      await code;
    },
  });
}

/** The same sandbox as a process of its own (`node bin/payctl.js sandbox start …`): for signals, and a database shared with another process. */
export async function startSandboxProcess(extraArgs: string[] = [], home = newHome()): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [BIN, ...SANDBOX_ARGS, ...extraArgs], {
    env: cleanEnv({ PAYCTL_HOME: home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve(line));
    child.once('exit', (code) => reject(new Error(`sandbox exited early (${code}): ${stderr}`)));
  });
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const signal = async (sig: NodeJS.Signals) => {
    if (ended()) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(sig);
    await exited;
  };
  return sandboxOf(JSON.parse(first) as SandboxInfo, home, { kill: signal, end: () => signal('SIGTERM') });
}

/** The harness's handle on a started sandbox, however it runs. */
function sandboxOf(
  info: SandboxInfo,
  home: string,
  life: { kill(signal: NodeJS.Signals): Promise<void>; end(): Promise<void> },
): SandboxProcess {
  // `sandbox start` prints its own generated keys by design (they open only this local sandbox); it
  // is the one output the secret scan leaves alone. Everything after it is scanned.
  registerSecret(info.key_secret, info.key_id);
  const origin = info.origin;
  const auth = 'Basic ' + Buffer.from(`${info.key_id}:${info.key_secret}`).toString('base64');
  const sandbox: SandboxProcess = {
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
    stats() {
      return sandbox.admin<SandboxStats>('GET', '/stats');
    },
    kill: life.kill,
    async stop() {
      await life.end();
      try {
        assertNoSecretInFiles(home);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  };
  return sandbox;
}
