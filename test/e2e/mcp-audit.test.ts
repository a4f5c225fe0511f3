import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { addProfile, run, sandboxForFile, scratchDir } from './harness';
import { call, capturedPayment, refundByToken, refunded, structured, textOf, withMcp } from './mcp-client';
import { STRICT } from '../tools';
import { fill, smallTmpfs } from './full-disk';

const sb = sandboxForFile();

describe('payctl mcp log: a chain of hashes', () => {
  const home = scratchDir('payctl-audit-');
  let env: Record<string, string>;
  beforeAll(async () => {
    env = await addProfile(sb, 'books', { home });
  });

  it('names a deleted and an edited record, and exits 1', async () => {
    await withMcp(['-p', 'books', '--allow-writes'], env, async (client) => {
      for (const amount of [1000, 2000, 3000]) {
        const id = await capturedPayment(sb);
        expect(structured(await refundByToken(client, { payment_id: id, amount })).outcome).toBe('done');
      }
    });
    const intact = await run(['mcp', 'log', '-o', 'json'], { env });
    expect(intact.code, intact.stderr).toBe(0);
    expect((JSON.parse(intact.stdout) as unknown[]).length).toBe(9);

    const path = join(home, 'mcp-audit.ndjson');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    // Record 3 (the first refund's outcome) says it moved 9000 instead of 1000; records 5 and 6 are gone.
    const edited = lines.map((l, i) => (i === 2 ? l.replace('"amount":1000', '"amount":9000') : l));
    expect(edited[2]).not.toBe(lines[2]);
    writeFileSync(path, `${edited.filter((_, i) => i !== 4 && i !== 5).join('\n')}\n`);
    const broken = await run(['mcp', 'log', '-o', 'json'], { env });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/not intact: record 3 was edited: record 4 holds another hash of it/);
    expect(broken.stderr).toMatch(/records 5-6 were deleted \(line 5 is record 7\)/);

    // The last record deleted shows too.
    writeFileSync(path, `${lines.slice(0, -1).join('\n')}\n`);
    const cut = await run(['mcp', 'log'], { env });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/record 9 was deleted from the end/);
  });
});

const tmpfs = smallTmpfs();

describe.skipIf(!tmpfs.dir && !STRICT)(
  `the audit log on a full disk${tmpfs.reason ? ` (skipped: ${tmpfs.reason})` : ''}`,
  () => {
    let proxy: FaultProxy;
    let env: Record<string, string>;
    beforeAll(async () => {
      if (!tmpfs.dir) throw new Error(`${tmpfs.reason}, and PAYCTL_TEST_STRICT=1 lets no test skip`);
      proxy = await startFaultProxy(sb.baseUrl);
      env = await addProfile(sb, 'full', { home: tmpfs.dir, baseUrl: proxy.baseUrl });
    });
    afterAll(() => proxy?.close());

    it('full after the refund was applied: the assistant is told it was done, and that the log could not be written', async () => {
      const id = await capturedPayment(sb);
      let key = '';
      // The disk fills while the service applies the refund: the intent is in the log, the outcome cannot be.
      proxy.setRule((req) =>
        req.method === 'POST' && req.path.endsWith('/refund')
          ? { type: 'rewrite-after', edit: (body) => (fill(tmpfs.dir), body) }
          : { type: 'pass' },
      );
      await withMcp(['-p', 'full', '--allow-writes'], env, async (client) => {
        const res = await refundByToken(client, { payment_id: id, amount: 7000 });
        expect(structured(res)).toMatchObject({ outcome: 'done', data: { amount: 7000, payment_id: id } });
        expect(String(structured(res).audit_log)).toMatch(/audit log could not be written \(.*ENOSPC.*\)/);
        expect(textOf(res)).not.toMatch(/-32603/);

        // The log holds the intent and no outcome: the next plan for the payment sends nothing until that
        // refund is checked by its key.
        const next = await call(client, 'payments_refund', { payment_id: id, amount: 100 });
        expect(next.isError).toBe(true);
        expect(textOf(next)).toMatch(/no known outcome on record \(key \S+\): check it first.*nothing was sent/);
        key = /\(key (\S+)\)/.exec(textOf(next))![1]!;
      });
      // Asked of the person (no plan recorded), on another payment: the intent cannot be recorded, so
      // nothing is sent.
      const other = await capturedPayment(sb);
      await withMcp(
        ['-p', 'full', '--allow-writes'],
        env,
        async (client) => {
          const res = await call(client, 'payments_refund', { payment_id: other, amount: 100 });
          expect(res.isError).toBe(true);
          expect(textOf(res)).toMatch(/audit log could not be written \(.*ENOSPC.*\): nothing was sent/);
        },
        () => true,
      );
      expect(await refunded(sb, id)).toBe(7000);
      expect(await refunded(sb, other)).toBe(0);
      rmSync(join(tmpfs.dir, 'filler'));
      const log = await run(['mcp', 'log', '-o', 'json'], { env });
      expect(log.code, log.stderr).toBe(0);
      const events = (JSON.parse(log.stdout) as { event: string }[]).map((r) => r.event);
      expect(events).toEqual(['planned', 'sending']);
      // With room again, the check it named finds the refund by its key and sends nothing more.
      await withMcp(['-p', 'full', '--allow-writes'], env, async (client) => {
        const res = await refundByToken(client, { payment_id: id, idempotency_key: key });
        expect(structured(res)).toMatchObject({ outcome: 'done', data: { amount: 7000, payment_id: id } });
      });
      expect(await refunded(sb, id)).toBe(7000);
    });
  },
);
