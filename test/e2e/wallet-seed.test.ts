import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run, runJson, sandboxForFile } from './harness';
import type { StatementEntry } from './harness';
import { PAYCTL, shell } from './shell';
import { shq, tmuxTerminal } from './tmux';

const sb = sandboxForFile();

const NOTICE = /wallet product is discontinued/g;

describe('sandbox seed --wallet N: wallet data to try', () => {
  it('customers with N mixed statement entries over several days; a statement exports and reconciles', async () => {
    const seeded = await runJson<string[]>(sb, ['sandbox', 'seed', '--wallet', '24']);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.data).toHaveLength(2);
    expect(seeded.data!.every((id) => /^cust_[A-Za-z0-9]{14}$/.test(id))).toBe(true);
    const hint = /try: payctl wallet statement (cust_\w+) --from (\S+) --to (\S+)/.exec(seeded.stderr);
    expect(hint, seeded.stderr).not.toBeNull();
    const [, customer, from, to] = hint!;
    expect(customer).toBe(seeded.data![0]);
    // The command the seed suggests, as a finance user would run it: CSV into a file through the shell.
    const file = join(sb.home, 'statement.csv');
    const exported = await shell(
      `${PAYCTL} wallet statement ${customer} --from ${from} --to ${to} --all -o csv > ${shq(file)}`,
      sb.env,
    );
    expect(exported.code, exported.stderr).toBe(0);
    for (const id of seeded.data!) {
      const res = await runJson<StatementEntry[]>(sb, [
        'wallet',
        'statement',
        id,
        '--from',
        from!,
        '--to',
        to!,
        '--all',
      ]);
      expect(res.code, res.stderr).toBe(0);
      const entries = [...res.data!].sort((a, b) => a.created_at - b.created_at);
      expect(entries.length).toBeGreaterThanOrEqual(24);
      for (const t of ['transfer', 'payment', 'refund', 'payout'])
        expect(
          entries.some((e) => e.type === t),
          t,
        ).toBe(true);
      const days = new Set(entries.map((e) => new Date(e.created_at * 1000).toISOString().slice(0, 10)));
      expect(days.size).toBeGreaterThanOrEqual(3);
      // opening + credits - debits = closing, entry by entry
      let balance = 0;
      for (const e of entries) {
        balance += e.credit - e.debit;
        expect(e.balance).toBe(balance);
      }
      const wallet = await runJson<{ balance: number }>(sb, ['wallet', 'balance', id]);
      expect(wallet.data!.balance).toBe(balance);
    }
  });

  it('sandbox account shows the balance transfers draw on, and a credit takes from it', async () => {
    const [customer] = (await runJson<string[]>(sb, ['sandbox', 'seed', '--wallet', '4'])).data!;
    const before = await runJson<{ balance: number; currency: string }>(sb, ['sandbox', 'account']);
    expect(before.code, before.stderr).toBe(0);
    expect(before.data).toMatchObject({ entity: 'merchant_account', currency: 'INR' });
    expect(before.data!.balance).toBeGreaterThan(0);
    const table = await run(['sandbox', 'account', '-o', 'table'], { env: sb.env });
    expect(table.stderr).toMatch(
      /merchant account balance ₹[\d,]+\.\d\d \(\d+ paise\): what wallet credits and transfers draw on/,
    );
    const credit = await runJson(sb, ['wallet', 'credit', '--customer', customer!, '--amount', '1000', '--yes']);
    expect(credit.code, credit.stderr).toBe(0);
    const after = await runJson<{ balance: number }>(sb, ['sandbox', 'account']);
    expect(after.data!.balance).toBe(before.data!.balance - 1000);
    const tooMuch = await run(
      ['wallet', 'credit', '--customer', customer!, '--amount', String(after.data!.balance + 1), '--yes'],
      { env: sb.env },
    );
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toContain(`account balance (${after.data!.balance})`);
  });
});

describe('the discontinued notice', () => {
  let customer: string;
  beforeAll(async () => {
    customer = (await runJson<string[]>(sb, ['sandbox', 'seed', '--wallet', '2'])).data![0]!;
  });

  /** Commands typed in one tmux terminal: one shell, one terminal session. */
  async function session(home: string, lines: string[]) {
    const vars = Object.entries({ ...sb.env, PAYCTL_HOME: home }).map(([k, v]) => `${k}=${shq(v)}`);
    const command = `export ${vars.join(' ')}; ${lines.join('; ')}; echo "[done]"`;
    const term = tmuxTerminal({ width: 200, command: `sh -c ${shq(command)}` });
    try {
      return await term.waitFor(/\[done\]/);
    } finally {
      term.close();
    }
  }

  it('once per terminal session: twice in one terminal shows it once, a new terminal shows it again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-notice-'));
    const balance = `${PAYCTL} wallet balance ${customer} -o table`;
    const first = await session(home, [balance, balance, `${PAYCTL} wallet statement ${customer} -o table`]);
    expect(first.match(NOTICE)).toHaveLength(1);
    const second = await session(home, [balance]);
    expect(second.match(NOTICE)).toHaveLength(1);
  });

  it('never on a machine-format stdout, never with PAYCTL_NO_NOTICES=1', async () => {
    const home = mkdtempSync(join(tmpdir(), 'payctl-notice-'));
    const screen = await session(home, [
      `${PAYCTL} wallet balance ${customer} -o json`,
      `${PAYCTL} wallet statement ${customer} -o csv`,
      `PAYCTL_NO_NOTICES=1 ${PAYCTL} wallet balance ${customer} -o table`,
    ]);
    expect(screen).toContain('"balance"');
    expect(screen.match(NOTICE)).toBeNull();
    const piped = await shell(`${PAYCTL} wallet balance ${customer} -o ndjson | cat`, { ...sb.env, PAYCTL_HOME: home });
    expect(piped.stderr).not.toMatch(NOTICE);
  });
});
