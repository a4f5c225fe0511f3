import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addProfile, bulkRows, run, sandboxForTest, seedAuthorized, seedCaptured } from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess | undefined;

const results = (stdout: string) => bulkRows(stdout).map((r) => r.result);
const refunds = async () => (await sb!.stats()).applied.refunds;

describe('the default journal', () => {
  it('is named after operation, profile and input: the same input resumes (and says so), a deliberate repeat needs --new-run', async () => {
    sb = await sandboxForTest();
    const ids = await seedCaptured(sb, 4);
    const csv = join(sb.home, 'refunds.csv');
    const text = `payment_id,amount\n${ids.map((id) => `${id},1000`).join('\n')}\n`;
    writeFileSync(csv, text);
    const args = ['payments', 'refund', '--input', csv, '--yes', '-o', 'ndjson'];

    const first = await run(args, { env: sb.env });
    expect(first.code, first.stderr).toBe(0);
    const name = /journal: (\S+refund-env-[0-9a-f]{16}\.ndjson) /.exec(first.stderr)?.[1];
    expect(name, first.stderr).toBeDefined();
    expect(statSync(name!).mode & 0o777).toBe(0o600);
    expect(statSync(join(sb.home, 'journals')).mode & 0o777).toBe(0o700);

    const again = await run(args, { env: sb.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `same input as an earlier run: resuming its journal ${name} (a --new-run would refund 4 payment(s), ` +
        'total ₹40.00 (4000 paise) AGAIN, and asks for that total to be typed)',
    );
    expect(results(again.stdout)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    // The same rows from stdin are the same input.
    const piped = await run(['payments', 'refund', '--input', '-', '--yes', '-o', 'ndjson'], {
      env: sb.env,
      input: text,
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toContain(`resuming its journal ${name}`);
    for (const id of ids) expect((await refunds())[id]).toEqual({ count: 1, amount: 1000 });

    const repeat = await run([...args, '--new-run'], { env: sb.env });
    expect(repeat.code, repeat.stderr).toBe(0);
    expect(results(repeat.stdout)).toEqual(['done', 'done', 'done', 'done']);
    for (const id of ids) expect((await refunds())[id]).toEqual({ count: 2, amount: 2000 });

    // Another amount is another input.
    const other = await run(['payments', 'refund', ...ids.slice(0, 2), '--amount', '500', '--yes', '-o', 'ndjson'], {
      env: sb.env,
    });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).not.toContain('resuming');
    expect(readdirSync(join(sb.home, 'journals')).filter((f) => f.endsWith('.ndjson'))).toHaveLength(3);
  });

  it('names the stored profile', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(sb, 2);
    const env = await addProfile(sb, 'ops');
    const res = await run(['-p', 'ops', 'payments', 'capture', ...ids, '--yes', '-o', 'ndjson'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/journal: \S+\/journals\/capture-ops-[0-9a-f]{16}\.ndjson /);
  });
});

describe('a damaged journal', () => {
  it('a torn last record is cut off on the first resume, and every later resume works; damage elsewhere is exit 2 naming the line', async () => {
    sb = await sandboxForTest();
    const ids = await seedAuthorized(sb, 3);
    const journal = join(sb.home, 'torn.ndjson');
    const args = ['payments', 'capture', ...ids, '--yes', '-o', 'ndjson', '--journal', journal];
    writeFileSync(
      journal,
      `{"type":"run","op":"capture","at":"x","pid":1,"items":3}\n{"type":"sent","id":"${ids[0]}","li`,
    );
    const first = await run(args, { env: sb.env });
    expect(first.code, first.stderr).toBe(0);
    // Torn: what it announced may have been sent, so that payment is read back first, never assumed unsent.
    expect(first.stderr).toContain(`its last record was cut short (44 bytes); ${ids[0]}'s outcome is unknown`);
    expect(results(first.stdout).sort()).toEqual(['done', 'done', 'done']);
    for (let i = 0; i < 2; i++) {
      const again = await run(args, { env: sb.env });
      expect(again.code, again.stderr).toBe(0);
      expect(results(again.stdout)).toEqual(['skipped', 'skipped', 'skipped']);
    }
    const { applied } = await sb.stats();
    for (const id of ids) expect(applied.captures[id]).toBe(1);

    for (const bad of ['null', '"text"', '[]']) {
      const damaged = join(sb.home, 'damaged.ndjson');
      writeFileSync(
        damaged,
        `{"type":"run","op":"capture","at":"x","pid":1,"items":3}\n${bad}\n{"type":"end","at":"x","done":0,"skipped":0,"failed":0,"unknown":0,"not_started":0}\n`,
      );
      const res = await run(['payments', 'capture', ...ids, '--yes', '--journal', damaged], { env: sb.env });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`journal ${damaged} line 2 is damaged`);
    }
  });
});
