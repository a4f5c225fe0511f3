import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJson, sandboxForFile } from './harness';
import { PAYCTL, shell } from './shell';

const sb = sandboxForFile();

const stats = () => sb.admin<{ writes: { captures: number; refunds: number }; requests: number }>('GET', '/stats');
const authorized = async () =>
  (await runJson<Array<{ id: string }>>(sb, ['payments', 'list', '--all', '--status', 'authorized'])).data!.map(
    (p) => p.id,
  );
const seedAuthorized = async (n: number) =>
  (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: n })).payment_ids;

describe("payctl's own output is payctl's input, through a real shell pipe", () => {
  it.each([
    ['NDJSON records', '-o ndjson'],
    ['the JSON array', '-o json'],
    ['the CSV export with only the id column', '-o csv --fields id'],
    ['the full CSV export', '-o csv'],
  ])(
    'payments list --all --status authorized %s | payments capture --input - captures them all',
    async (_n, out) => {
      expect(await authorized()).toEqual([]);
      const ids = await seedAuthorized(12);
      const before = (await stats()).writes.captures;
      const res = await shell(
        `${PAYCTL} payments list --all --status authorized ${out} | ${PAYCTL} payments capture --input - --yes`,
        sb.env,
      );
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('12 done, 0 skipped (already done), 0 failed, 0 unknown');
      expect(res.stderr).not.toMatch(/unknown key|unknown CSV column/);
      expect((await stats()).writes.captures - before).toBe(12);
      expect(await authorized()).toEqual([]);
      const captured = await runJson<{ status: string }>(sb, ['payments', 'get', ids[0]!]);
      expect(captured.data!.status).toBe('captured');
    },
    60_000,
  );

  it('a refund takes payment records too: each refunds the amount its record shows', async () => {
    const [id] = await seedAuthorized(1);
    await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' });
    const res = await shell(
      `${PAYCTL} payments get ${id} -o ndjson | ${PAYCTL} payments refund --input - --yes -o ndjson`,
      sb.env,
    );
    expect(res.code, res.stderr).toBe(0);
    const payment = await runJson<{ amount_refunded: number; refund_status: string }>(sb, ['payments', 'get', id!]);
    expect(payment.data).toMatchObject({ amount_refunded: 50000, refund_status: 'full' });
  });

  it('anything else keeps the strict refusal: exit 2, one line per bad row, nothing sent', async () => {
    const [id] = await seedAuthorized(1);
    const file = join(sb.home, 'rows.ndjson');
    writeFileSync(file, `{"id":"${id}","stauts":"authorized"}\n{"id":"order_AAAAAAAAAAAAAA","entity":"order"}\n`);
    const before = await stats();
    const res = await shell(`${PAYCTL} payments capture --input ${file} --yes`, sb.env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('line 1: unknown key "stauts"');
    expect(res.stderr).toContain('line 2: a "order" record where a payment is expected');
    const after = await stats();
    expect(after.writes.captures).toBe(before.writes.captures);
    await shell(`${PAYCTL} payments capture ${id} --yes`, sb.env);
  });
});
