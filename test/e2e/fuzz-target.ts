import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll } from 'vitest';
import type { EndpointName } from '../../src/contract';
import { startSandbox } from './harness';
import type { SandboxProcess } from './harness';

// The sandbox fuzz-sandbox.test.ts sends hostile requests to: seeded with a record of each kind a write
// names, its store read beside it to prove that a refused request changed nothing.

export const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE records; --',
  '" OR ""="',
  "x') UNION SELECT data FROM records --",
  '%27%20OR%201=1',
];
export const PATHS = [
  '../../orders',
  '..%2F..%2Forders',
  '%2e%2e%2f',
  'pay_x%2Fcapture',
  '%00',
  '%252F',
  'pay_%E2%80%AE',
  '.',
  '..',
];

/**
 * The seeded sandbox a whole test file attacks, started before its first test and stopped after its
 * last. Its fields are filled in when it starts: read them in tests, not at load.
 */
export function fuzzTargetForFile() {
  let sb: SandboxProcess;
  let db: DatabaseSync;
  let auth: string;
  const ids: Record<string, string> = {};

  /** A digest of everything the sandbox stores. */
  function state(): string {
    const rows = db.prepare('SELECT id, status, due_at, data FROM records ORDER BY seq').all();
    const applied = db.prepare('SELECT * FROM applied ORDER BY payment_id, kind').all();
    return createHash('sha256')
      .update(JSON.stringify([rows, applied]))
      .digest('hex');
  }

  /** A raw request: the path goes out exactly as written (no normalisation of `..` or `%2F`). */
  function raw(method: string, path: string, body?: string): Promise<{ status: number; json: unknown }> {
    const url = new URL(sb.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { authorization: auth, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => {
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = text;
            }
            resolve({ status: res.statusCode ?? 0, json });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** What every hostile request must get: 400 with the service's error object, never a 500. */
  async function expect400(method: string, path: string, body?: string) {
    const res = await raw(method, path, body);
    const err = (res.json as { error?: { code?: string; description?: string } })?.error;
    if (res.status !== 400 || err?.code !== 'BAD_REQUEST_ERROR' || !err.description) {
      throw new Error(
        `${method} ${path} ${body?.slice(0, 300) ?? ''} -> ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`,
      );
    }
  }

  /** Valid requests for every write endpoint: each case spoils exactly one part of one of them. */
  const valid = (): Partial<Record<EndpointName, { id?: string; body: Record<string, unknown> }>> => ({
    createOrder: { body: { amount: 5000, currency: 'INR', receipt: 'fuzz', notes: { a: 'b' } } },
    createPlan: { body: { period: 'weekly', interval: 1, item: { name: 'Fuzz', amount: 1000, currency: 'INR' } } },
    createSubscription: { body: { plan_id: ids.plan, total_count: 3 } },
    cancelSubscription: { id: ids.subscription, body: { cancel_at_cycle_end: 1 } },
    capturePayment: { id: ids.authorized, body: { amount: 50000, currency: 'INR' } },
    refundPayment: { id: ids.captured, body: { amount: 100, receipt: 'r', notes: {} } },
    transferPayment: {
      id: ids.captured,
      body: { transfers: [{ customer: ids.customer, amount: 100, currency: 'INR' }] },
    },
    createWalletPayment: {
      body: {
        method: 'wallet',
        wallet: 'openwallet',
        customer_id: ids.customer,
        order_id: ids.order,
        amount: 10000,
        currency: 'INR',
        contact: '+919876543210',
        email: 'a@example.com',
      },
    },
    createDirectTransfer: { body: { customer_id: ids.customer, amount: 100, currency: 'INR' } },
    createFundAccount: {
      body: {
        customer_id: ids.customer,
        account_type: 'bank_account',
        bank_account: { name: 'A', ifsc: 'HDFC0000053', account_number: '12345678' },
      },
    },
    createPayout: {
      id: ids.customer,
      body: { fund_account_id: ids.fundAccount, purpose: 'refund', amount: 100, currency: 'INR' },
    },
  });

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-fuzz-sb-'));
    sb = await startSandbox(['--db', join(dir, 'fuzz.db')]);
    auth = 'Basic ' + Buffer.from(`${sb.keyId}:${sb.keySecret}`).toString('base64');
    const seeded = await sb.admin<{ payment_ids: string[]; customer_ids: string[] }>('POST', '/seed', {
      orders: 6,
      authorized: 2,
    });
    ids.authorized = seeded.payment_ids[0]!;
    ids.captured = seeded.payment_ids[1]!;
    await sb.api('POST', `/payments/${ids.captured}/capture`, { amount: 50000, currency: 'INR' });
    ids.customer = seeded.customer_ids[0]!;
    ids.order = (await sb.api<{ id: string }>('POST', '/orders', { amount: 10000, currency: 'INR' })).body.id;
    await sb.api('POST', '/transfers', { customer_id: ids.customer, amount: 20000, currency: 'INR' });
    ids.fundAccount = (
      await sb.api<{ id: string }>('POST', '/fund_accounts', {
        customer_id: ids.customer,
        account_type: 'bank_account',
        bank_account: { name: 'Asha Rao', ifsc: 'HDFC0000053', account_number: '765432123456789' },
      })
    ).body.id;
    ids.plan = (
      await sb.api<{ id: string }>('POST', '/plans', {
        period: 'monthly',
        interval: 1,
        item: { name: 'Gold', amount: 49900, currency: 'INR' },
      })
    ).body.id;
    ids.subscription = (
      await sb.api<{ id: string }>('POST', '/subscriptions', { plan_id: ids.plan, total_count: 6 })
    ).body.id;
    db = new DatabaseSync(join(dir, 'fuzz.db'), { readOnly: true });
  });
  afterAll(async () => {
    db?.close();
    await sb?.stop();
  });

  return { ids, state, expect400, valid };
}
