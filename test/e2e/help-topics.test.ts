import { describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE, exitCodeOf } from '../../src/cli/exit-codes';
import { ENVIRONMENT_NAMES } from '../../src/cli/environment';
import { NAMED_PERIODS } from '../../src/contract/values/time';
import { run } from './harness';

const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('payctl help TOPIC', () => {
  it('payctl --help lists the topics, and each one prints', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    const listed = help.stdout.split('Help topics (payctl help TOPIC):\n')[1] ?? '';
    const names = listed
      .split('\n')
      .filter(Boolean)
      .map((l) => l.trim().split(/\s+/)[0]);
    expect(names).toEqual(['environment', 'exit-codes', 'formatting', 'exports', 'money-safety']);
    for (const name of names) {
      const topic = await run(['help', name!]);
      expect(topic.code, name).toBe(0);
      expect(topic.stderr).toBe('');
      expect(topic.stdout.split('\n').length, name).toBeGreaterThan(10);
      // Wrapped between words for an 80-column terminal.
      for (const line of topic.stdout.split('\n'))
        if (!/^ {2}(?! )(?!- ).*payctl /.test(line)) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });

  it('payctl help exit-codes prints the table errors are mapped with', async () => {
    const res = await run(['help', 'exit-codes']);
    expect(res.code).toBe(0);
    for (const row of EXIT_CODE_TABLE) {
      expect(flat(res.stdout)).toContain(` ${row.code} ${flat(row.meaning)}`);
      for (const kind of row.kinds) if (kind !== 'interrupted') expect(exitCodeOf({ kind }), kind).toBe(row.code);
    }
    // What a run really exits with is the row the table gives for its kind: a usage error is 2.
    const usage = await run(['payments', 'capture', 'not-an-id', '--yes']);
    expect(usage.code).toBe(EXIT_CODE_TABLE.find((r) => r.kinds.includes('usage'))!.code);
  });

  it('payctl help environment names every variable payctl reads', async () => {
    const res = await run(['help', 'environment']);
    for (const name of ENVIRONMENT_NAMES) expect(res.stdout, name).toContain(name);
    expect(res.stdout).toMatch(/PAYCTL_NO_NOTICES\s+set \(other than 0\): no product notices/);
    expect(res.stdout).toContain('XDG_STATE_HOME');
  });

  it('payctl help formatting lists every relative time --from, --to and --start-at take', async () => {
    const res = await run(['help', 'formatting']);
    for (const name of [...NAMED_PERIODS.keys(), 'now', '3d', '3w']) expect(res.stdout, name).toContain(name);
    expect(res.stdout).toContain('tomorrow');
    expect(res.stdout).toContain('next-month');
  });

  it('a word that is neither a topic nor a command is exit 2 naming the topics', async () => {
    const res = await run(['help', 'nosuch']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^payctl: no command or help topic "nosuch" \(topics: environment, exit-codes, .*\)\n$/);
    expect((await run(['help', 'orders'])).stdout).toContain('list orders, most recent first');
  });
});

describe('group help', () => {
  it('payctl orders --help: its commands first, the global options in one line', async () => {
    const res = await run(['orders', '--help']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    const commands = lines.filter((l) => /^ {2}\w+ [[<]/.test(l)).length;
    // Usage, the description, "Commands:", a line or two a command, then the global options in one sentence.
    expect(commands).toBeGreaterThanOrEqual(5);
    expect(lines.length).toBeLessThanOrEqual(commands + 10);
    expect(res.stdout).not.toContain('Global Options:');
    expect(res.stdout.indexOf('Commands:')).toBeLessThan(res.stdout.indexOf('--profile') >>> 0);
    expect(res.stdout).toMatch(/list \[options\]\s+list orders/);
    expect(flat(res.stdout)).toMatch(
      /Global options \(-p --base-url -o .*\) go before or after the command: see `payctl --help`, and `payctl help environment`/,
    );
  });

  it('a command of the group still lists every global option', async () => {
    const res = await run(['orders', 'list', '--help']);
    expect(res.stdout).toContain('Global Options:');
    expect(res.stdout).toContain('--profile <name>');
  });
});
