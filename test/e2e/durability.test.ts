import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxProcess } from './harness';
import type { SandboxProcess } from './harness';

const home = mkdtempSync(join(tmpdir(), 'payctl-durability-'));
const dbFile = join(home, 'durable.db');
let sb: SandboxProcess | undefined;

afterAll(async () => {
  await sb?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('durability', () => {
  it('a sandbox killed with SIGKILL under write load keeps every write it acknowledged, and its database checks clean', async () => {
    sb = await startSandboxProcess(['--db', dbFile], home);
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 400 });
    const orders: string[] = [];
    const captured: string[] = [];
    let stop = false;
    const target = sb;
    // Eight clients writing as fast as they can: orders, and captures (money) of seeded payments.
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          if (i % 2 === 0) {
            const res = await target.api<{ id: string }>('POST', '/orders', {
              amount: 1000 + i,
              currency: 'INR',
              receipt: `d-${w}-${i}`,
            });
            if (res.status === 200) orders.push(res.body.id);
          } else {
            const id = payment_ids.pop();
            if (!id) continue;
            const res = await target.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' });
            if (res.status === 200) captured.push(id);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Killed mid-load, once enough writes were acknowledged to make the check worth something.
    const deadline = Date.now() + 20_000;
    while ((orders.length <= 50 || captured.length <= 20) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await sb.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(orders.length).toBeGreaterThan(50);
    expect(captured.length).toBeGreaterThan(20);

    // The file as the killed process left it: recovery from the WAL, then SQLite's own check.
    const db = new DatabaseSync(dbFile);
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const stored = new Set(
      (db.prepare("SELECT id FROM records WHERE entity = 'order'").all() as Array<{ id: string }>).map((r) => r.id),
    );
    db.close();
    expect(orders.filter((id) => !stored.has(id))).toEqual([]);

    // And the restarted sandbox serves them.
    sb = await startSandboxProcess(['--db', dbFile], home);
    for (const id of captured) {
      const res = await sb.api<{ status: string }>('GET', `/payments/${id}`);
      expect(res.body.status, id).toBe('captured');
    }
    const stats = await sb.admin<{ applied: { captures: Record<string, number> } }>('GET', '/stats');
    for (const id of captured) expect(stats.applied.captures[id], id).toBe(1);
  }, 60_000);
});
