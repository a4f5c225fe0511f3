import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { IO } from '../../src/commands/context';

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
const CLI = new URL('../../dist/cli.js', import.meta.url).href;
let cli: Promise<Main> | undefined;

/**
 * payctl's own entry, `main(argv, io, env)`, from the build the binary runs (dist/cli.js, loaded by Node
 * itself: vitest.config.ts leaves dist/ external), with streams of its own: stdin holds `input` and is
 * then closed, no stream is a terminal, `env` is all it reads of the environment, and `interrupt` is
 * its Ctrl-C. It installs no signal handler and never exits.
 */
function inProcess(args: string[], env: NodeJS.ProcessEnv, input: string | undefined, interrupt: AbortSignal) {
  const stdout = new Collected();
  const stderr = new Collected();
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const io: IO = { stdout, stderr, stdin, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, interrupt };
  cli ??= (import(/* @vite-ignore */ CLI) as Promise<{ main: Main }>).then((m) => m.main);
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

/** A scratch folder for the whole test file, removed after its last test. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Stores the sandbox's key as profile `name` the way a user does (`profile add … --key-secret-stdin`),
 * in `home` (the sandbox's own by default), pointed at `baseUrl` (the sandbox by default, or a proxy in
 * front of it). Fails the test if payctl refuses it; answers the environment that uses the profile.
 */
export async function addProfile(
  sb: SandboxProcess,
  name: string,
  opts: { baseUrl?: string; home?: string; args?: string[] } = {},
): Promise<{ PAYCTL_HOME: string }> {
  const env = { PAYCTL_HOME: opts.home ?? sb.home };
  const args = ['--key-id', sb.keyId, '--key-secret-stdin', '--base-url', opts.baseUrl ?? sb.baseUrl];
  const added = await run(['profile', 'add', name, ...args, ...(opts.args ?? [])], { env, input: sb.keySecret });
  expect(added.code, added.stderr).toBe(0);
  return env;
}

/** `n` authorized payments of 50000 paise, seeded in the sandbox: their ids. */
export async function seedAuthorized(sb: SandboxProcess, n: number): Promise<string[]> {
  return (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: n })).payment_ids;
}

/** `n` payments of 50000 paise, authorized and captured in full through the service's own API: their ids. */
export async function seedCaptured(sb: SandboxProcess, n: number): Promise<string[]> {
  const ids = await seedAuthorized(sb, n);
  for (const id of ids)
    expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
  return ids;
}

/** One payment of 50000 paise, captured in full through the service's own API: its id. */
export const capturedPayment = async (sb: SandboxProcess): Promise<string> => (await seedCaptured(sb, 1))[0]!;

/** One JSON value a line, as `-o ndjson` prints and a bulk journal holds them. */
export function ndjson<T = Record<string, unknown>>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/** A bulk run's row for one payment (`-o ndjson`). */
export interface BulkRow {
  line: number;
  payment_id: string;
  result: 'done' | 'skipped' | 'failed' | 'unknown' | 'duplicate';
  status: string | null;
  amount: number | null;
  reason: string | null;
}

export const bulkRows = (stdout: string) => ndjson<BulkRow>(stdout);

/** A bulk journal: its records, the ids it marked sent, and those it holds an outcome for. */
export function readJournal(path: string) {
  const records = ndjson(readFileSync(path, 'utf8'));
  const sent = records.filter((r) => r.type === 'sent').map((r) => r.id as string);
  const outcomes = new Set(records.filter((r) => r.type === 'outcome').map((r) => r.id as string));
  return { records, sent, outcomes };
}

/** The sandbox applied a capture to exactly `n` payments, each exactly once. */
export async function expectCapturedOnce(sb: SandboxProcess, n: number) {
  const { captures } = (await sb.stats()).applied;
  expect(Object.keys(captures)).toHaveLength(n);
  expect(Object.values(captures).every((count) => count === 1)).toBe(true);
}

/** Waits (polling) until `path` exists and holds `text`: e.g. a journal's first "sent" record. */
export async function waitForFileText(path: string, text: string, timeout = 30_000) {
  await expect
    .poll(() => existsSync(path) && readFileSync(path, 'utf8').includes(text), { timeout, interval: 10 })
    .toBe(true);
}

/** `payctl orders create --amount AMOUNT --currency INR …extra` against the sandbox: the order it made. */
export async function createOrder(sb: SandboxProcess, amount: number, extra: string[] = []) {
  const args = ['orders', 'create', '--amount', String(amount), '--currency', 'INR', ...extra];
  const res = await runJson<Record<string, unknown> & { id: string }>(sb, args);
  expect(res.code, res.stderr).toBe(0);
  return res.data!;
}

/** One entry of a wallet statement (`wallet statement -o json`). */
export interface StatementEntry {
  id: string;
  type: string;
  created_at: number;
  credit: number;
  debit: number;
  balance: number;
}

/**
 * The sandbox a whole test file shares: started (with `args`, or what `args()` answers once the
 * file's own servers are up) before its first test, stopped after its last, its home then scanned for
 * leaked secrets. Its fields are filled in when it starts: read them in hooks and tests, not at load.
 * In this process unless `how` asks for a process of its own (see startSandbox).
 */
export function sandboxForFile(
  args: string[] | (() => Promise<string[]>) = [],
  how: 'in-process' | 'process' = 'in-process',
): SandboxProcess {
  const sb = {} as SandboxProcess;
  beforeAll(async () => {
    const start = how === 'process' ? startSandboxProcess : startSandbox;
    Object.assign(sb, await start(typeof args === 'function' ? await args() : args));
  });
  afterAll(async () => {
    await sb.stop?.();
  });
  return sb;
}

/**
 * The arguments of an unattended bulk capture of `ids` as a script runs one: the ids written one a line
 * to ids.txt in the sandbox's home and read with --input, NDJSON rows on stdout, journaled to `journal`.
 */
export function bulkCaptureArgs(sb: SandboxProcess, ids: string[], journal: string): string[] {
  const input = join(sb.home, 'ids.txt');
  writeFileSync(input, ids.join('\n'));
  return ['payments', 'capture', '--input', input, '--yes', '-o', 'ndjson', '--journal', journal];
}

/** A payctl run in the background, watched: its output so far, its exit, signals. */
export interface Started {
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
  running: () => boolean;
  signal(sig: NodeJS.Signals): void;
  rows(n: number): Promise<void>;
}

/** Starts payctl without waiting for it (for signals mid-run); `rows(n)` resolves once stdout has more than `n` lines. */
export function startPayctl(args: string[], env: Record<string, string | undefined>): Started {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let exited = false;
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (c) => ((exited = true), resolve(c))));
  return {
    out: () => out,
    err: () => err,
    exit,
    running: () => !exited,
    signal: (sig) => child.kill(sig),
    rows: (n) =>
      new Promise((resolve, reject) => {
        const check = () => out.split('\n').length > n && resolve();
        child.stdout.on('data', check);
        void exit.then(() => reject(new Error(`exited before ${n} rows: ${err}`)));
      }),
  };
}

/** An order in INR made through the service's own API (notes with what no flag could carry); fails unless created. */
export async function apiOrder(sb: SandboxProcess, body: { amount: number; receipt?: string; notes?: unknown }) {
  const created = await sb.api<{ id: string }>('POST', '/orders', { currency: 'INR', ...body });
  expect(created.status).toBe(200);
  return created.body;
}
