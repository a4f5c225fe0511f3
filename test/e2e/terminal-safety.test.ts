import { describe, expect, it } from 'vitest';
import { apiOrder, run, sandboxForFile } from './harness';

const sb = sandboxForFile();

// What a hostile or careless payload looks like: a receipt that retitles the terminal and clears it,
// notes that move the cursor, a right-to-left override that reverses the text after it.
const HOSTILE = {
  receipt: '\x1b]0;pwned\x07\x1b[2Jrcpt',
  notes: { memo: 'ok\x1b[1A\x1b[2Kfake line', dir: 'abc\u202Efdp.exe', bell: 'ding\x07\x07', c1: 'x\x9b31mred' },
};

describe('terminal safety', () => {
  it('control and escape sequences in service data never reach the terminal in table output', async () => {
    await apiOrder(sb, { amount: 4200, ...HOSTILE });
    for (const args of [
      [
        'orders',
        'list',
        '--receipt',
        HOSTILE.receipt,
        '-o',
        'table',
        '--fields',
        'id,receipt,notes.memo,notes.dir,notes.bell,notes.c1',
      ],
      ['orders', 'list', '-o', 'table'],
    ]) {
      const res = await run(args, { env: { ...sb.env, NO_COLOR: '1' } });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('rcpt');
      expect(res.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it('JSON output keeps the data exactly (escaped by JSON itself)', async () => {
    const res = await run(['orders', 'list', '--receipt', HOSTILE.receipt, '-o', 'json'], { env: sb.env });
    const [order] = JSON.parse(res.stdout) as Array<{ receipt: string; notes: Record<string, string> }>;
    expect(order!.receipt).toBe(HOSTILE.receipt);
    expect(order!.notes).toEqual(HOSTILE.notes);
    expect(res.stdout).not.toContain('\x1b');
  });
});
