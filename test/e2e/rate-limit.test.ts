import { beforeAll, expect, it } from 'vitest';
import { runJson, sandboxForFile } from './harness';

const sb = sandboxForFile(['--rate-limit', '3']);
beforeAll(async () => {
  await sb.admin('POST', '/seed', { authorized: 450 });
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
