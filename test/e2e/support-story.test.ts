import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxForFile } from './harness';
import { PAYCTL } from './shell';
import { tmuxTerminal } from './tmux';

// A support agent at an 80-column terminal: a customer writes in with her e-mail address. The agent finds
// her payment, opens its order, refunds part of it, and sees both refunds with their times.

const sb = sandboxForFile();
const EMAIL = 'priya.sharma@example.com';
let payment: string;
let order: string;
let term: ReturnType<typeof tmuxTerminal>;

const ESC = /\x1b\[[0-9;]*m/g;
const cells = (line: string) => [...line.replace(ESC, '')].length;

beforeAll(async () => {
  await sb.admin('POST', '/seed', { orders: 30 });
  order = String((await sb.api('POST', '/orders', { amount: 240000, currency: 'INR', payment_capture: true })).body.id);
  await sb.admin('POST', '/checkout', { order_id: order, fail: true, email: EMAIL });
  payment = String(
    (await sb.admin('POST', '/checkout', { order_id: order, email: EMAIL, contact: '+919811122233' })).id,
  );
  // Refunded in part once already, by someone else on the team.
  expect((await sb.api('POST', `/payments/${payment}/refund`, { amount: 40000 })).status).toBe(200);
  await sb.admin('POST', '/seed', { orders: 30 });
});
afterAll(() => term?.close());

/** The agent's terminal, opened inside the test: a machine without tmux skips the test and lists it. */
function openTerminal() {
  term = tmuxTerminal({ width: 80, command: 'sh', env: { ...sb.env, TERM: 'xterm-256color' } });
  term.keys(`payctl() { ${PAYCTL} "$@"; echo "[exit $?]"; }`, 'Enter');
}

let seen = 0;
/** Types a command as the agent does; answers the screen it printed, once `[exit N]` follows it. */
async function type(command: string, answer?: { when: RegExp; keys: string }): Promise<string> {
  term.keys(command, 'Enter');
  if (answer) {
    await term.waitFor(answer.when);
    term.keys(answer.keys, 'Enter');
  }
  const done = new RegExp(`(?:[\\s\\S]*?\\[exit \\d+\\]){${++seen}}`);
  const screen = await term.waitFor(done, 30_000);
  const from = screen.lastIndexOf(command);
  const out = screen.slice(from + command.length);
  for (const line of out.split('\n')) expect(cells(line.trimEnd()), line).toBeLessThanOrEqual(80);
  expect(out).toMatch(/\[exit 0\]/);
  return out;
}

describe('the support story at 80 columns', () => {
  it('finds the payment by e-mail, opens its order, refunds part of it and sees both refunds with their times', async () => {
    openTerminal();
    const found = await type(`payctl payments list --email ${EMAIL.toUpperCase()}`);
    expect(found).toMatch(/^id\s+status\s+amount\s+refunded\s+created_at/m);
    expect(found).toMatch(new RegExp(`${payment}\\s+captured\\s+₹2,400\\.00\\s+₹400\\.00\\s+\\d{4}-\\d\\d-\\d\\d`));
    expect(found).toMatch(/filtered by payctl: \d+ pages? of the service's list read/);

    const detail = await type(`payctl payments get ${payment}`);
    expect(detail).toMatch(new RegExp(`order_id\\s+${order}`));
    expect(detail).toMatch(new RegExp(`email\\s+${EMAIL.replace(/\./g, '\\.')}`));

    expect(await type(`payctl orders get ${order}`)).toMatch(/status\s+paid[\s\S]*attempts\s+2/);
    const attempts = await type(`payctl orders payments ${order}`);
    expect(attempts).toMatch(new RegExp(`${payment}\\s+captured`));
    expect(attempts).toMatch(/pay_\w{14}\s+failed/);

    const refunded = await type(`payctl payments refund ${payment} --amount 25000`, {
      when: /Refund ₹250\.00 \(25000 paise\) of payment[\s\S]*\(y\/N\)/,
      keys: 'y',
    });
    expect(refunded).toMatch(/status\s+processed/);

    const refunds = await type(`payctl refunds list --payment ${payment}`);
    expect(refunds).toMatch(/^id\s+amount\s+status\s+created_at/m);
    const rows = refunds.split('\n').filter((l) => /^rfnd_\w{14}\s/.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/₹250\.00\s+processed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(rows[1]).toMatch(/₹400\.00\s+processed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });
});
