import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox';
import type { RunningSandbox } from '../../../src/sandbox';

type Obj = Record<string, unknown>;
interface Keys {
  keyId: string;
  keySecret: string;
}

const dir = mkdtempSync(join(tmpdir(), 'payctl-accounts-'));
const db = join(dir, 'sandbox.db');
let sb: RunningSandbox;

async function call(who: Keys, method: 'GET' | 'POST', path: string, body?: unknown) {
  const auth = 'Basic ' + Buffer.from(`${who.keyId}:${who.keySecret}`).toString('base64');
  const res = await fetch(`${sb.origin}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}
async function json(who: Keys, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Obj> {
  const res = await call(who, method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.text}`);
  return JSON.parse(res.text) as Obj;
}
async function newAccount(who: Keys, body: Obj = {}): Promise<Keys & { id: string }> {
  const made = await json(who, 'POST', '/_sandbox/accounts', body);
  return { id: String(made.id), keyId: String(made.key_id), keySecret: String(made.key_secret) };
}

/** Every page of a list, as the service sent each one. */
async function everyPage(who: Keys, path: string): Promise<string[]> {
  const pages: string[] = [];
  for (let skip = 0; ; skip += 100) {
    const page = await call(who, 'GET', `${path}?count=100&skip=${skip}`);
    pages.push(page.text);
    if ((JSON.parse(page.text) as { count: number }).count < 100) return pages;
  }
}

beforeAll(async () => {
  sb = await startSandbox({ db });
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an account with 10,000 records, saved and loaded', () => {
  it('answers every page of every list as before; the keys stay; the snapshot holds no secret', async () => {
    const a = await newAccount(sb, { name: 'big' });
    await json(a, 'POST', '/_sandbox/seed', { authorized: 3400 });
    const stats = (await json(a, 'GET', '/_sandbox/stats')) as { records: Record<string, number> };
    const records = Object.values(stats.records).reduce((n, c) => n + c, 0);
    expect(records).toBeGreaterThanOrEqual(10_000);

    const saved = await json(a, 'POST', '/_sandbox/snapshots/save', { name: 'big' });
    expect(saved).toMatchObject({ name: 'big', records });
    const before = [...(await everyPage(a, '/v1/orders')), ...(await everyPage(a, '/v1/payments'))];

    await json(a, 'POST', '/v1/orders', { amount: 100, currency: 'INR' });
    await json(a, 'POST', '/_sandbox/reset');
    expect(((await json(a, 'GET', '/v1/orders')) as { count: number }).count).toBe(0);
    expect(await json(a, 'GET', '/_sandbox/account')).toMatchObject({ id: a.id, name: 'big' });

    await json(a, 'POST', '/_sandbox/snapshots/load', { name: 'big' });
    const after = [...(await everyPage(a, '/v1/orders')), ...(await everyPage(a, '/v1/payments'))];
    expect(after).toHaveLength(before.length);
    expect(after).toEqual(before);

    const file = join(`${db}.d`, 'snapshots', a.id, 'big.db');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(file, 'latin1');
    expect(bytes).not.toContain(a.keySecret);
    expect(bytes).not.toContain(sb.keySecret);
    expect(readdirSync(join(`${db}.d`, 'snapshots', a.id))).toEqual(['big.db']);
  }, 120_000);
});

describe('accounts', () => {
  it('an account made by one process on the database is served by another', async () => {
    const other = await startSandbox({ db });
    try {
      const made = await newAccount(sb);
      const res = await fetch(`${other.baseUrl}/orders`, {
        headers: { authorization: 'Basic ' + Buffer.from(`${made.keyId}:${made.keySecret}`).toString('base64') },
      });
      expect(res.status).toBe(200);
      const wrong = await fetch(`${other.baseUrl}/orders`, {
        headers: { authorization: 'Basic ' + Buffer.from(`${made.keyId}:nope`).toString('base64') },
      });
      expect(wrong.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('refuses a bad name, an unknown snapshot and a snapshot name that is a path, with nothing made', async () => {
    const before = readdirSync(join(`${db}.d`, 'accounts')).length;
    for (const [path, body, message] of [
      ['/_sandbox/accounts', { from: 'nothing' }, 'No snapshot named nothing'],
      ['/_sandbox/accounts', { name: '' }, 'name'],
      ['/_sandbox/snapshots/save', { name: '../x' }, 'snapshot name'],
      ['/_sandbox/snapshots/load', { name: 'nothing' }, 'No snapshot named nothing'],
      ['/_sandbox/snapshots/delete', { name: 'nothing' }, 'No snapshot named nothing'],
    ] as const) {
      const res = await call(sb, 'POST', path, body);
      expect(res.status, path).toBe(400);
      expect(res.text).toContain(message);
    }
    expect(readdirSync(join(`${db}.d`, 'accounts'))).toHaveLength(before);
  });
});
