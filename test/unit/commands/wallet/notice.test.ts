import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstInSession, terminalSession } from '../../../../src/commands/wallet/notice';
import { showBalance } from '../../../../src/commands/wallet/handlers';
import { fakeContext } from '../fake-context';

const dir = () => mkdtempSync(join(tmpdir(), 'payctl-notice-'));
const T = 1_795_000_000;

describe('a notice once per terminal session', () => {
  it('is shown the first time in a session, not again within the time bound, again after it', () => {
    const state = dir();
    expect(firstInSession(state, 'n', 'sid 1 tty 34816', T)).toBe(true);
    expect(firstInSession(state, 'n', 'sid 1 tty 34816', T + 60)).toBe(false);
    expect(firstInSession(state, 'n', 'sid 2 tty 34817', T + 60)).toBe(true);
    expect(firstInSession(state, 'n', 'sid 1 tty 34816', T + 13 * 3600)).toBe(true);
    expect(statSync(join(state, 'notices.json')).mode & 0o077).toBe(0);
  });

  it('a damaged state file is replaced, never fails the command', () => {
    const state = dir();
    writeFileSync(join(state, 'notices.json'), '{nope');
    expect(firstInSession(state, 'n', 's', T)).toBe(true);
    expect(JSON.parse(readFileSync(join(state, 'notices.json'), 'utf8'))).toEqual({ 'n s': T });
  });

  it('forgets sessions past the time bound', () => {
    const state = dir();
    firstInSession(state, 'n', 'old', T);
    firstInSession(state, 'n', 'new', T + 13 * 3600);
    expect(Object.keys(JSON.parse(readFileSync(join(state, 'notices.json'), 'utf8')))).toEqual(['n new']);
  });

  it('names this process session on Linux', () => {
    expect(terminalSession()).toMatch(process.platform === 'linux' ? /^sid \d+ tty \d+$/ : /^ppid \d+/);
  });
});

describe('the discontinued notice on wallet commands', () => {
  const routes = {
    'GET /customers/:id/balance': {
      body: { entity: 'wallet_balance', customer_id: 'cust_A', balance: 1, monthly_usage: 0, max_balance: 2 },
    },
  };
  const balance = (f: ReturnType<typeof fakeContext>) => showBalance({ customer: 'cust_4xbQrmEoA5q1fP' }, f.ctx);

  it('a table: once, then not again in the same session', async () => {
    const f = fakeContext({ routes, settings: { format: 'table' } });
    await balance(f);
    await balance(f);
    expect(f.stderr().match(/discontinued/g)).toHaveLength(1);
  });

  it('never with a machine format on stdout, never with PAYCTL_NO_NOTICES=1', async () => {
    const json = fakeContext({ routes, settings: { format: 'ndjson' } });
    await balance(json);
    expect(json.stderr()).toBe('');
    const quiet = fakeContext({ routes, settings: { format: 'table', notices: { enabled: false } } });
    await balance(quiet);
    expect(quiet.stderr()).toBe('');
  });

  it('a file written with --out leaves stdout empty: the notice shows', async () => {
    const f = fakeContext({ routes, settings: { format: 'csv', out: 'x.csv' } });
    await balance(f);
    expect(f.stderr()).toMatch(/discontinued/);
  });
});
