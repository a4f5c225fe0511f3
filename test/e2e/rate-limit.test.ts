import { afterAll, beforeAll, expect, it } from 'vitest';
import { runJson, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess;
beforeAll(async () => {
  sb = await startSandbox(['--rate-limit', '3']);
  await sb.admin('POST', '/seed', { orders: 450 });
});
afterAll(async () => {
  await sb?.stop();
});

it('rides through 429s with backoff and still returns every page', async () => {
  const res = await runJson<Array<{ id: string }>>(sb, ['orders', 'list', '--all'], { timeoutMs: 60_000 });
  expect(res.code, res.stderr).toBe(0);
  expect(res.data).toHaveLength(450);
  expect(new Set(res.data!.map((o) => o.id)).size).toBe(450);
  const stats = await sb.admin<{ requests: number }>('GET', '/stats');
  // 5 pages were needed; more requests than that means some were refused with 429 and retried.
  expect(stats.requests).toBeGreaterThan(5);
});
