import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IO } from '../../src/commands/context';
import { runProgram } from '../../src/cli/run';
import { parseTimeInput } from '../../src/contract/values/time';
import { assertNoSecret, sandboxForFile } from './harness';

// Thousands of malformed invocations, run in-process (one process each would take minutes) against a
// real sandbox: every one must end with exit 2 and one clear line, and none may reach the service.

const sb = sandboxForFile();
let payment: string;
let requestsBefore: number;
let runs = 0;

const requests = async () => (await sb.admin<{ requests: number }>('GET', '/stats')).requests;

beforeAll(async () => {
  payment = (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids[0]!;
  requestsBefore = await requests();
});

async function invoke(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const io: IO = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const code = await runProgram(argv, io, sb.env);
  runs++;
  assertNoSecret(out + err, `payctl ${argv.join(' ')}`);
  return { code, out, err };
}

/** Exit 2, exactly one line on stderr, no stack trace, nothing on stdout. */
async function refused(argv: string[]) {
  const { code, out, err } = await invoke(argv);
  const lines = err.trim().split('\n');
  const ok =
    code === 2 &&
    lines.length === 1 &&
    lines[0]!.startsWith('payctl: ') &&
    !/\n\s+at |Error:|TypeError|undefined/.test(err) &&
    out === '';
  if (!ok)
    throw new Error(
      `argv ${JSON.stringify(argv)} -> exit ${code}\nstderr: ${JSON.stringify(err)}\nstdout: ${JSON.stringify(out.slice(0, 200))}`,
    );
}

const SAFE_AMOUNT = (s: string) =>
  /^\d+$/.test(s.trim()) && Number(s.trim()) >= 1 && Number.isSafeInteger(Number(s.trim()));
const VALID_PAYMENT_ID = (s: string) => /^pay_[A-Za-z0-9]{1,40}$/.test(s.trim());
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

const badAmount = fc.oneof(
  fc.tuple(fc.nat(99999), fc.integer({ min: 1, max: 999 })).map(([a, b]) => `${a}.${b}`),
  fc.integer({ min: -1e9, max: 0 }).map(String),
  fc.constantFrom(
    '1e3',
    '0x10',
    '50,000',
    '₹500',
    '١٢٣',
    '５００',
    '99999999999999999999',
    'NaN',
    'Infinity',
    '',
    ' ',
    '+5',
    '1_000',
  ),
  anyText.filter((s) => !SAFE_AMOUNT(s)),
);
const badPaymentId = fc.oneof(
  fc.constantFrom(
    'pay_../../orders',
    'pay_%2F..%2Fx',
    'pay_a/b',
    'pay_',
    'pay_ x',
    'order_29QQoUBi66xm2f',
    'PAY_29QQoUBi66xm2f',
    `pay_${'a'.repeat(41)}`,
    "pay_1' OR '1'='1",
    'pay_1;DROP TABLE records',
  ),
  anyText.map((s) => `pay_${s}`).filter((s) => !VALID_PAYMENT_ID(s)),
  anyText.filter((s) => !VALID_PAYMENT_ID(s)),
);
const badTime = fc.oneof(
  fc.constantFrom(
    '2024-13-01',
    '2024-02-30',
    'the-day-after',
    'next tuesday',
    '1714500000000',
    '-5d',
    '5x',
    '24:00',
    '2024-04-31',
    '',
  ),
  anyText.filter((s) => !parseTimeInput(s, { tz: 'UTC', nowMs: Date.now(), bound: 'start' }).ok),
);
const badNote = fc.oneof(
  anyText.filter((s) => !s.includes('=')),
  anyText.map((v) => `=${v}`),
  fc.integer({ min: 257, max: 2000 }).map((n) => `k=${'x'.repeat(n)}`),
  fc.integer({ min: 257, max: 400 }).map((n) => `${'k'.repeat(n)}=v`),
);
const badCount = fc.oneof(
  fc.constantFrom('0', '101', '-1', '1.5', 'abc', '', '1e2', '10 0', '٣'),
  fc.integer({ min: 101, max: 1e9 }).map(String),
  anyText.filter((s) => !/^\s*\d+\s*$/.test(s) || Number(s) < 1 || Number(s) > 100),
);
const unknownFlag = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).map((s) => `--zz-${s}`);

const opts = { numRuns: 300, seed: 20261122 };

/** `check` holds for every value `arb` draws, over the file's seeded, bounded runs. */
const holds = <T>(arb: fc.Arbitrary<T>, check: (value: T) => Promise<void>, numRuns = opts.numRuns) =>
  fc.assert(fc.asyncProperty(arb, check), { ...opts, numRuns });

describe('argument fuzzing: exit 2, one line, nothing sent', () => {
  it('malformed amounts', async () => {
    await holds(fc.tuple(badAmount, fc.constantFrom('refund', 'capture', 'create')), async ([amount, cmd]) => {
      if (cmd === 'create') await refused(['orders', 'create', `--amount=${amount}`, '--currency', 'INR']);
      else if (cmd === 'refund') await refused(['--yes', 'payments', 'refund', payment, `--amount=${amount}`]);
      else await refused(['--yes', 'payments', 'capture', payment, `--amount=${amount}`, '--currency', 'INR']);
    });
  }, 120_000);

  it('malformed ids', async () => {
    await holds(fc.tuple(badPaymentId, fc.constantFrom('get', 'refund', 'capture')), ([id, cmd]) =>
      refused(['--yes', 'payments', cmd, '--', id]),
    );
  }, 120_000);

  it('malformed dates', async () => {
    const flags = fc.tuple(badTime, fc.constantFrom('--from', '--to'), fc.constantFrom('orders', 'payments'));
    await holds(flags, ([t, flag, group]) => refused([group, 'list', `${flag}=${t}`]));
  }, 120_000);

  it('malformed notes', async () => {
    await holds(badNote, (note) =>
      refused(['orders', 'create', '--amount', '100', '--currency', 'INR', `--note=${note}`]),
    );
  }, 120_000);

  it('too many notes', async () => {
    const notes = (n: number) => Array.from({ length: n }, (_, i) => `--note=k${i}=v`);
    await holds(
      fc.integer({ min: 16, max: 40 }),
      (n) => refused(['orders', 'create', '--amount', '100', '--currency', 'INR', ...notes(n)]),
      25,
    );
  }, 120_000);

  it('malformed counts', async () => {
    await holds(fc.tuple(badCount, fc.constantFrom('--count', '--skip', '--limit')), async ([count, flag]) => {
      const argv =
        flag === '--limit' ? ['orders', 'list', '--all', `--limit=${count}`] : ['orders', 'list', `${flag}=${count}`];
      if (flag === '--skip' && /^\s*\d+\s*$/.test(count)) return; // any whole number is a valid skip
      if (flag === '--limit' && /^\s*\d+\s*$/.test(count) && Number(count) >= 1) return; // and any positive one a limit
      await refused(argv);
    });
  }, 120_000);

  it('unknown flags and unknown commands, in unicode too', async () => {
    const commands = fc.constantFrom(
      ['payments', 'get', 'pay_29QQoUBi66xm2f'],
      ['orders', 'list'],
      ['wallet', 'statement', 'cust_4xbQrmEoA5q1fP'],
    );
    await holds(fc.tuple(unknownFlag, commands), ([flag, cmd]) => refused([...cmd, flag]));
    const words = anyText.filter(
      (s) =>
        !['help', 'completion'].includes(s) &&
        !/^-/.test(s) &&
        !/^(orders|payments|plans|subscriptions|wallet|profile|sandbox)$/.test(s),
    );
    await holds(words, async (word) => {
      await refused([word]);
      await refused(['payments', word]);
    });
  }, 120_000);

  it('the sandbox saw none of it', async () => {
    expect(runs).toBeGreaterThan(2000);
    expect(await requests()).toBe(requestsBefore);
  });
});
