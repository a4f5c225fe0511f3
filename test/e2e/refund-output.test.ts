import { describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile, seedCaptured } from './harness';

const sb = sandboxForFile();
const count = (text: string, word: string) => text.split(word).length - 1;

describe('a refund as a person reads it', () => {
  it('a table shows the notes once and not payctl_key; JSON and CSV keep the key', async () => {
    const [id] = await seedCaptured(sb, 1);
    const env = await addProfile(sb, 'support');
    const refund = await run(
      [
        '-p',
        'support',
        'payments',
        'refund',
        id!,
        '--amount',
        '1000',
        '--note',
        'reason=damaged',
        '--yes',
        '-o',
        'table',
      ],
      { env },
    );
    expect(refund.code, refund.stderr).toBe(0);
    expect(count(refund.stdout, 'damaged')).toBe(1);
    expect(refund.stdout).toMatch(/^notes\.reason\s+damaged$/m);
    expect(refund.stdout).not.toMatch(/payctl_key|pcs_/);
    expect(refund.stdout).not.toMatch(/^notes\s/m);

    const listed = await run(['refunds', 'list', '--payment', id!, '-o', 'table', '--wide'], { env: sb.env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('{"reason":"damaged"}');
    expect(listed.stdout).not.toMatch(/payctl_key|pcs_/);

    const json = await run(['refunds', 'list', '--payment', id!, '-o', 'json'], { env: sb.env });
    const [record] = JSON.parse(json.stdout) as Array<{ notes: Record<string, string> }>;
    expect(record!.notes.reason).toBe('damaged');
    expect(record!.notes.payctl_key).toMatch(/^pcs_/);
    const csv = await run(['refunds', 'list', '--payment', id!, '-o', 'csv', '--fields', 'id,notes.payctl_key'], {
      env: sb.env,
    });
    expect(csv.stdout).toMatch(/,pcs_/);
  });
});
