import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capturedPayment, run, sandboxForFile } from './harness';
import { PAYCTL } from './shell';
import { shq, tmuxTerminal } from './tmux';

const sb = sandboxForFile();

const stats = () => sb.admin<{ writes: { captures: number; refunds: number }; requests: number }>('GET', '/stats');

/** payctl on an 80-column tmux terminal; the shell prints its exit status when it ends. */
function terminal(args: string[]) {
  const vars = Object.entries({ ...sb.env, TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${shq(v)}`);
  const command = `env ${vars.join(' ')} ${PAYCTL} ${args.map(shq).join(' ')}; echo "[exit $?]"`;
  return tmuxTerminal({ width: 80, command });
}

/** payctl on a terminal, answered No at the question: the screen once the shell has printed its exit status. */
async function answerNo(args: string[], question: RegExp): Promise<string> {
  const term = terminal(args);
  try {
    await term.waitFor(question);
    term.keys('n', 'Enter');
    return await term.waitFor(/\[exit \d+\]/);
  } finally {
    term.close();
  }
}

describe('a person at a prompt, on a real terminal', () => {
  it('answering No to a confirmation exits 8 and says nothing was sent', async () => {
    const id = await capturedPayment(sb);
    const before = await stats();
    const screen = await answerNo(['payments', 'refund', id, '--amount', '1000'], /Refund ₹10.00[^]*\(y\/N\)/);
    expect(screen).toContain('[exit 8]');
    expect(screen).toContain('payctl: declined at a confirmation: nothing was sent');
    expect((await stats()).writes.refunds).toBe(before.writes.refunds);
  });

  it('a long question wraps between words at 80 columns', async () => {
    const id = await capturedPayment(sb);
    const term = terminal(['payments', 'refund', id, '--amount', '1000']);
    try {
      await term.waitFor(/\(y\/N\)/);
      const rows = term.capture(false, true).split('\n');
      const first = rows.findIndex((r) => r.includes('Refund ₹10.00'));
      const last = rows.findIndex((r) => r.includes('(y/N)'));
      expect(first).toBeGreaterThanOrEqual(0);
      expect(last).toBeGreaterThan(first); // the question takes more than one line here
      const question = rows.slice(first, last + 1);
      for (const row of question) expect(row.length).toBeLessThanOrEqual(80);
      // Joined with a space at each break, the lines read as the question: no word was cut in two.
      expect(question.map((r) => r.trim()).join(' ')).toMatch(
        new RegExp(
          `Refund ₹10\\.00 \\(1000 paise\\) of payment ${id} \\(captured, ₹500\\.00 \\(50000 paise\\), refunded so far ₹0\\.00 \\(0 paise\\)\\)\\? \\(y/N\\)`,
        ),
      );
      term.keys('n', 'Enter');
      expect(await term.waitFor(/\[exit \d+\]/)).toContain('[exit 8]');
    } finally {
      term.close();
    }
  });

  it('a bulk capture declined at its question: exit 8, nothing captured', async () => {
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 3 });
    const before = await stats();
    const screen = await answerNo(['payments', 'capture', ...payment_ids], /Capture 3 payment\(s\)/);
    expect(screen).toContain('[exit 8]');
    expect(screen).toContain('nothing was sent');
    expect((await stats()).writes.captures).toBe(before.writes.captures);
  });

  it('a resume says so before asking, and asks about what is left', async () => {
    const done = [await capturedPayment(sb), await capturedPayment(sb)];
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
    const late = payment_ids[0]!; // not captured yet: the first run's refund of it is refused
    const input = join(sb.home, 'refunds.csv');
    writeFileSync(input, `payment_id,amount\n${done[0]},1000\n${done[1]},1000\n${late},1500\n`);
    const first = await run(['--yes', 'payments', 'refund', '--input', input], { env: sb.env });
    expect(first.code, first.stderr).toBe(7);
    await sb.api('POST', `/payments/${late}/capture`, { amount: 50000, currency: 'INR' });
    const before = await stats();
    const term = terminal(['payments', 'refund', '--input', input]);
    try {
      const asked = await term.waitFor(/\(y\/N\)/);
      // tmux wraps the question at 80 columns, inside a word too: compared without white space.
      expect(asked.replace(/\s+/g, '')).toContain(
        'Resume:2of3donebytheearlierrun.Refundtheremaining1payment(s),total₹15.00(1500paise)?',
      );
      term.keys('y', 'Enter');
      const screen = await term.waitFor(/\[exit \d+\]/);
      expect(screen).toContain('[exit 0]');
    } finally {
      term.close();
    }
    expect((await stats()).writes.refunds).toBe(before.writes.refunds + 1);
  });

  it.each([
    ['the payment id question', false],
    ['the amount question', true],
  ])('Ctrl-C at %s of the guided refund: exit 130, and it says nothing was sent', async (_n, later) => {
    const id = await capturedPayment(sb);
    const before = await stats();
    const term = terminal(['payments', 'refund']);
    try {
      await term.waitFor(/Payment id to refund/);
      if (later) {
        term.keys('-l', id);
        term.keys('Enter');
        await term.waitFor(/Refund how much\?/);
        term.keys('Down', 'Enter');
        await term.waitFor(/Amount to refund/);
        term.keys('-l', '100');
      }
      term.keys('C-c');
      const screen = await term.waitFor(/\[exit \d+\]/);
      expect(screen).toContain('[exit 130]');
      expect(screen).toContain('payctl: interrupted at a question: nothing was sent');
    } finally {
      term.close();
    }
    expect((await stats()).writes.refunds).toBe(before.writes.refunds);
  });
});
