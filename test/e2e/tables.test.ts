import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, runJson, sandboxForFile } from './harness';
import { shq, tmuxTerminal } from './tmux';

const sb = sandboxForFile();
beforeAll(async () => {
  await runJson(sb, ['sandbox', 'seed', '6']);
  // A long e-mail and receipt, so that something has to be shortened.
  const order = await runJson(sb, [
    'orders',
    'create',
    '--amount',
    '123456',
    '--currency',
    'INR',
    '--receipt',
    'a-very-long-receipt-number-0001',
  ]);
  await runJson(sb, [
    'sandbox',
    'pay',
    String(order.data!.id),
    '--email',
    'someone.with.a.really.long.name@example-company.co.in',
  ]);
});

const ESC = /\x1b\[[0-9;]*m/g;
const cells = (line: string) => [...line.replace(ESC, '')].length;

/** payctl on a real tmux terminal of `width` columns; resolves to the screen (wrapped lines joined). */
async function onScreen(width: number, args: string[], env: Record<string, string> = {}) {
  // The colour settings of whoever runs the suite stay out of it: only those a test gives apply.
  const vars = Object.entries({ ...sb.env, TERM: 'xterm-256color', ...env }).map(([k, v]) => `${k}=${shq(v)}`);
  const command = `env -u NO_COLOR -u FORCE_COLOR ${vars.join(' ')} ${shq(process.execPath)} ${shq(BIN)} ${args.map(shq).join(' ')}; echo "[exit $?]"`;
  const term = tmuxTerminal({ width, command });
  try {
    await term.waitFor(/\[exit \d+\]/);
    const strip = (s: string) => s.replace(/\n?Pane is dead.*\n*$/, '\n');
    return { plain: strip(term.capture()), colored: strip(term.capture(true)) };
  } finally {
    term.close();
  }
}

describe('tables on a real terminal', () => {
  it.each([80, 120])(
    'payments list fits %i columns, with a header rule, shortened cells and the dropped columns named',
    async (width) => {
      const { plain } = await onScreen(width, ['payments', 'list']);
      const lines = plain
        .split('\n')
        .map((l) => l.trimEnd())
        .filter(Boolean);
      expect(lines.at(-1)).toBe('[exit 0]');
      for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(width);
      // What a person needs first stays, created_at included; money in one human form.
      expect(lines[0]).toMatch(/^id\s+status\s+amount\s.*\bcreated_at$/);
      expect(lines[1]).toMatch(/^─+(\s+─+)+$/);
      expect(plain).toMatch(/pay_[A-Za-z0-9]{14}/);
      expect(plain).toMatch(/₹1,234\.56(?! \()/);
      expect(plain).not.toContain('paise');
      const at = lines.findIndex((l) => l.startsWith('not shown'));
      const note = lines.slice(at, -1).join(' ');
      expect(note, plain).toMatch(/^not shown \(--wide\): ([\w.]+, )*contact/);
    },
  );

  it('long cells are shortened with …; columns picked with --fields keep the order asked for', async () => {
    const { plain } = await onScreen(80, ['payments', 'list', '--fields', 'id,status,created_at,email']);
    const lines = plain.split('\n').filter(Boolean);
    for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^id\s+status\s+created_at\s+email$/);
    expect(plain).toMatch(/someone\.with\.a\.\S*…/);
    expect(plain).not.toContain('not shown');
  });

  it('orders list at 80 columns keeps id, status and amount', async () => {
    const { plain } = await onScreen(80, ['orders', 'list']);
    const lines = plain.split('\n').filter(Boolean);
    for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^id\s+status\s+amount\s.*\bcreated_at$/);
    expect(plain).toMatch(/^not shown \(--wide\): (\w+, )*receipt/m);
  });

  it('wallet statement at 80 columns keeps created_at, type and balance, money in one form', async () => {
    const seeded = await sb.admin<{ customer_ids: string[] }>('POST', '/seed', { wallet_entries: 4 });
    const { plain } = await onScreen(80, ['wallet', 'statement', seeded.customer_ids.at(-1)!], {
      PAYCTL_NO_NOTICES: '1',
    });
    // The discontinued-product notice is another matter (its own issue): the table is what counts here.
    const lines = plain.split('\n').filter((l) => l && !l.startsWith('note: '));
    for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(80);
    const header = lines.find((l) => l.startsWith('created_at'))!;
    expect(header, plain).toMatch(/^created_at\s+type\s+credit\s+debit\s+balance/);
    expect(plain).toMatch(/₹\d+\.\d\d/);
    expect(plain).not.toMatch(/paise/);
  });

  it('a full page says more may exist, the hint wrapped between words at 80 columns', async () => {
    const { plain } = await onScreen(80, ['payments', 'list', '--count', '3']);
    const lines = plain.split('\n').filter(Boolean);
    for (const line of lines) expect(cells(line), line).toBeLessThanOrEqual(80);
    const at = lines.findIndex((l) => l.startsWith('one page of 3 payments'));
    expect(at, plain).toBeGreaterThan(0);
    expect(lines.slice(at, at + 2).join(' ')).toBe(
      'one page of 3 payments shown; more may exist: --all for every page, --skip 3 for the next, --limit N for N rows',
    );
    expect(lines.at(-1)).toBe('[exit 0]');
  });

  it('a list is never written to a file as a drawn table: --out takes a data format, and says so', async () => {
    const file = join(sb.home, 'table.txt');
    const { plain } = await onScreen(80, ['payments', 'list', '-o', 'table', '--out', file]);
    expect(plain).toContain('the format follows the extension');
    expect(existsSync(file)).toBe(false);
  });

  it('--wide shows every column, however wide', async () => {
    const { plain } = await onScreen(80, ['payments', 'list', '--wide']);
    const header = plain.split('\n')[0]!;
    expect(header).toMatch(
      /id\s+status\s+amount\s+currency\s+amount_refunded\s+fee\s+tax\s+method\s+order_id\s+email\s+contact\s+captured\s+created_at/,
    );
    expect(plain).toMatch(/₹1,234\.56 \(123456 paise\)/);
    expect(cells(header)).toBeGreaterThan(80);
    expect(plain).toContain('someone.with.a.really.long.name@example-company.co.in');
    expect(plain).not.toContain('not shown');
  });

  it('statuses are coloured on a terminal: captured green, authorized yellow; the rule and the note dim', async () => {
    const { colored } = await onScreen(120, ['payments', 'list']);
    expect(colored).toMatch(/\x1b\[32mcaptured/);
    expect(colored).toMatch(/\x1b\[33mauthorized/);
    expect(colored).toMatch(/\x1b\[2m─/);
    expect(colored).toMatch(/\x1b\[2mnot shown/);
  });

  it.each([
    ['NO_COLOR', [], { NO_COLOR: '1' }],
    ['--no-color', ['--no-color'], {}],
    ['--no-color beats FORCE_COLOR', ['--no-color'], { FORCE_COLOR: '1' }],
  ] as const)('no colour with %s', async (_, flags, env) => {
    const { colored } = await onScreen(120, ['payments', 'list', ...flags], env);
    expect(colored).toContain('captured');
    expect(colored).not.toMatch(/\x1b\[(32|33|31|2)m/);
  });

  it('no colour and no width limit without a terminal; FORCE_COLOR colours a pipe', async () => {
    const piped = await run(['payments', 'list', '-o', 'table'], { env: { ...sb.env, NO_COLOR: undefined } });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain('\x1b');
    expect(piped.stdout.split('\n')[0]).toMatch(/email\s+contact\s+captured\s+created_at/);
    expect(piped.stderr).not.toContain('not shown');
    const forced = await run(['payments', 'list', '-o', 'table'], {
      env: { ...sb.env, FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    expect(forced.stdout).toMatch(/\x1b\[32mcaptured/);
    const narrow = await run(['payments', 'list', '-o', 'table'], { env: { ...sb.env, COLUMNS: '60' } });
    for (const line of narrow.stdout.split('\n')) expect(cells(line), line).toBeLessThanOrEqual(60);
    expect(narrow.stderr).toMatch(/^not shown \(--wide\): /m);
  });

  it('one record fits too: long values cut with …, --wide keeps them', async () => {
    const list = await runJson<Array<{ id: string; email: string }>>(sb, ['payments', 'list']);
    const long = list.data!.find((p) => p.email.startsWith('someone'))!;
    const { plain } = await onScreen(50, ['payments', 'get', long.id]);
    for (const line of plain.split('\n')) expect(cells(line), line).toBeLessThanOrEqual(50);
    expect(plain).toMatch(/email\s+someone\.with\.\S*…/);
    const wide = await onScreen(50, ['payments', 'get', long.id, '--wide']);
    expect(wide.plain).toContain('someone.with.a.really.long.name@example-company.co.in');
  });
});
