import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLog, unknownRefundIn, verifyAudit } from '../../../src/agent/audit';
import type { AuditRecord } from '../../../src/agent/audit';

const dir = mkdtempSync(join(tmpdir(), 'payctl-audit-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rec = (event: AuditRecord['event'], extra: Partial<AuditRecord> = {}): AuditRecord => ({
  at: '2024-01-01T00:00:00.000Z',
  profile: 'profile shop',
  tool: 'payments_refund',
  arguments: { payment_id: 'pay_A' },
  event,
  ...extra,
});

describe('the audit log', () => {
  it('chains each record to the one before, across instances, and names what was changed', () => {
    const path = join(dir, 'a.ndjson');
    new AuditLog(path).append(rec('planned'));
    const log = new AuditLog(path);
    for (const amount of [1, 2, 3, 4]) log.append(rec('done', { amount }));
    expect(verifyAudit(path)).toMatchObject({ problems: [] });
    expect(verifyAudit(path).records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(
      path,
      `${[lines[0], lines[1]!.replace('"amount":1', '"amount":7'), lines[2], lines[4]].join('\n')}\n`,
    );
    expect(verifyAudit(path).problems).toEqual([
      'record 2 was edited: record 3 holds another hash of it',
      'record 4 was deleted (line 4 is record 5)',
    ]);
    writeFileSync(path, `${lines.slice(0, 4).join('\n')}\n`);
    expect(verifyAudit(path).problems).toEqual(['record 5 was deleted from the end (the log held 5)']);
    writeFileSync(path, `${[...lines.slice(0, 4), lines[4]!.replace('"amount":4', '"amount":5')].join('\n')}\n`);
    expect(verifyAudit(path).problems).toEqual(['record 5 (the last) was edited']);
  });

  it('records from before the chain are shown, counted, and chained onto', () => {
    const path = join(dir, 'old.ndjson');
    writeFileSync(path, `${JSON.stringify(rec('done'))}\n${JSON.stringify(rec('planned'))}\n`);
    new AuditLog(path).append(rec('done', { amount: 5 }));
    expect(verifyAudit(path)).toMatchObject({ legacy: 2, problems: [] });
    expect(verifyAudit(path).records.map((r) => r.seq)).toEqual([0, 0, 1]);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    writeFileSync(path, `${[lines[0], lines[2]].join('\n')}\n`);
    expect(verifyAudit(path).problems).toEqual(['the lines before record 1 were changed or removed']);
  });

  it('a refund stays unknown until a later record settles its key', () => {
    const unknown = rec('unknown', { key: 'k1', amount: 100 });
    expect(unknownRefundIn([unknown], 'pay_A')).toEqual({ key: 'k1', amount: 100 });
    expect(unknownRefundIn([unknown], 'pay_B')).toBeUndefined();
    expect(unknownRefundIn([unknown, rec('done', { key: 'k1' })], 'pay_A')).toBeUndefined();
    expect(unknownRefundIn([unknown, rec('planned', { key: 'k1' })], 'pay_A')).toEqual({ key: 'k1', amount: 100 });
  });
});
