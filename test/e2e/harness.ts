import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { BIN, run } from './payctl';
import type { RunOptions } from './payctl';
import { startSandbox, startSandboxProcess } from './sandboxes';
import type { SandboxProcess } from './sandboxes';

export * from './payctl';
export * from './sandboxes';

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

/** `payctl profile add NAME` with the sandbox's key id, the secret read from stdin, `baseUrl` (the sandbox's by default), `...extra`. */
export const profileAddArgs = (sb: SandboxProcess, name: string, baseUrl = sb.baseUrl, ...extra: string[]) => [
  ...['profile', 'add', name, '--key-id', sb.keyId, '--key-secret-stdin', '--base-url', baseUrl],
  ...extra,
];

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
  const added = await run(profileAddArgs(sb, name, opts.baseUrl, ...(opts.args ?? [])), { env, input: sb.keySecret });
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

/** `payctl subscriptions create --plan PLAN --total-count TOTAL …extra`: created, not yet authorised by the customer. */
export async function createSubscription<T extends { id: string }>(
  sb: SandboxProcess,
  planId: string,
  total: number,
  extra: string[] = [],
) {
  const args = ['subscriptions', 'create', '--plan', planId, '--total-count', String(total), ...extra];
  const res = await runJson<T>(sb, args);
  expect(res.code, res.stderr).toBe(0);
  expect(res.data).toMatchObject({ status: 'created', paid_count: 0 });
  return res.data!;
}

/** `payctl sandbox pay ID`: the subscription as the customer's authorisation at the sandbox's checkout left it. */
export async function authoriseSubscription<T>(sb: SandboxProcess, id: string) {
  const paid = await runJson<T>(sb, ['sandbox', 'pay', id]);
  expect(paid.code, paid.stderr).toBe(0);
  return paid.data!;
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
 * A sandbox for the running test alone: started with `args` (in this process unless `how` asks for a
 * process of its own), stopped when the test finishes, passed or failed. Call it inside a test.
 */
export async function sandboxForTest(
  args: string[] = [],
  how: 'in-process' | 'process' = 'in-process',
): Promise<SandboxProcess> {
  const sb = await (how === 'process' ? startSandboxProcess : startSandbox)(args);
  onTestFinished(() => sb.stop());
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

/**
 * The arguments of an unattended bulk refund of the rows of `csv` as a script runs one: NDJSON rows on
 * stdout, journaled to `journal`, `...extra` after them (a deadline, a concurrency).
 */
export const bulkRefundArgs = (csv: string, journal: string, ...extra: string[]): string[] => [
  ...['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson', '--journal', journal],
  ...extra,
];

/** Moves the sandbox clock forward to `to` (a luxon DateTime, or anything that tells its Unix seconds). */
export async function advanceClockTo(sb: SandboxProcess, to: { toSeconds(): number }) {
  const { now } = await sb.admin<{ now: number }>('GET', '/clock');
  const seconds = Math.floor(to.toSeconds()) - now;
  expect(seconds, 'the sandbox clock is already past the time asked for').toBeGreaterThanOrEqual(0);
  await sb.admin('POST', '/clock/advance', { seconds });
}

/** An order of `amount` paise made through the service's API with payment_capture, paid at the sandbox's checkout: the captured payment's id. */
export async function paidAtCheckout(sb: SandboxProcess, amount: number, receipt?: string): Promise<string> {
  const order = await apiOrder(sb, { amount, receipt, payment_capture: true });
  const payment = await sb.admin<{ id: string; status: string }>('POST', '/checkout', { order_id: order.id });
  expect(payment.status).toBe('captured');
  return payment.id;
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
export async function apiOrder(
  sb: SandboxProcess,
  body: { amount: number; receipt?: string; notes?: unknown; payment_capture?: boolean },
) {
  const created = await sb.api<{ id: string }>('POST', '/orders', { currency: 'INR', ...body });
  expect(created.status).toBe(200);
  return created.body;
}
