import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../../src/bulk/journal';
import { progressLine } from '../../../src/bulk/progress';

const dir = () => mkdtempSync(join(tmpdir(), 'payctl-journal-'));

describe('Journal', () => {
  it('reads back each payment as done, failed, unknown or in flight', () => {
    const path = join(dir(), 'j.ndjson');
    const j = Journal.open(path, 'capture');
    j.write({ type: 'run', op: 'capture', at: 'now', pid: 1, items: 4 });
    for (const id of ['pay_a', 'pay_b', 'pay_c', 'pay_d']) j.sent({ id, line: 1, amount: 100, currency: 'INR' });
    j.outcome('pay_a', 'done', { status: 'captured' });
    j.outcome('pay_b', 'failed', { reason: 'refused' });
    j.outcome('pay_c', 'unknown', { reason: 'no answer' });
    j.close();
    const again = Journal.open(path, 'capture');
    expect(['pay_a', 'pay_b', 'pay_c', 'pay_d', 'pay_e'].map((id) => again.stateOf(id))).toEqual([
      'done',
      'failed',
      'unknown',
      'in_flight',
      'new',
    ]);
    expect(again.reasonOf('pay_b')).toBe('refused');
    again.close();
  });

  it('cuts a last line torn by a kill off durably, so every later resume works too', () => {
    const path = join(dir(), 'j.ndjson');
    const good =
      '{"type":"run","op":"refund","at":"x","pid":1,"items":1}\n{"type":"sent","id":"pay_a","line":1,"amount":100,"amount_refunded":0,"at":"x"}\n';
    writeFileSync(path, `${good}{"type":"outc`);
    const j = Journal.open(path, 'refund');
    expect(j.repaired).toBe(13);
    expect(j.stateOf('pay_a')).toBe('in_flight');
    expect(j.sentOf('pay_a')).toMatchObject({ amount: 100, amount_refunded: 0 });
    expect(readFileSync(path, 'utf8')).toBe(good);
    j.outcome('pay_a', 'unknown', {});
    j.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: 'outcome', id: 'pay_a', result: 'unknown' });
    for (let i = 0; i < 2; i++) {
      const again = Journal.open(path, 'refund');
      expect(again.repaired).toBe(0);
      expect(again.stateOf('pay_a')).toBe('unknown');
      again.close();
    }
  });

  it.each([
    ['null', 'null'],
    ['a number', '42'],
    ['an array', '[1,2]'],
    ['an unknown record type', '{"type":"what"}'],
    ['a sent record without an id', '{"type":"sent","line":1}'],
  ])('refuses %s on a line that is not the last, naming the line', (_what, bad) => {
    const path = join(dir(), 'j.ndjson');
    writeFileSync(
      path,
      `{"type":"run","op":"refund","at":"x","pid":1,"items":1}\n${bad}\n{"type":"end","at":"x","done":0,"skipped":0,"failed":0,"unknown":0,"not_started":0}\n`,
    );
    expect(() => Journal.open(path, 'refund')).toThrow(/line 2 is damaged/);
    // and the lock is not left behind
    expect(() => Journal.open(path, 'refund')).toThrow(/line 2 is damaged/);
  });

  it('a journal is created 0600', () => {
    const path = join(dir(), 'j.ndjson');
    Journal.open(path, 'refund').close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a damaged line in the middle, a journal of the other operation, and a journal in use', () => {
    const d = dir();
    const damaged = join(d, 'damaged.ndjson');
    writeFileSync(damaged, 'garbage\n{"type":"run","op":"capture","at":"x","pid":1,"items":1}\n');
    expect(() => Journal.open(damaged, 'capture')).toThrow(/line 1 is damaged/);

    const other = join(d, 'other.ndjson');
    writeFileSync(other, '{"type":"run","op":"capture","at":"x","pid":1,"items":1}\n');
    expect(() => Journal.open(other, 'refund')).toThrow(/belongs to a bulk capture/);

    const busy = join(d, 'busy.ndjson');
    const held = Journal.open(busy, 'capture');
    expect(() => Journal.open(busy, 'capture')).toThrow(/in use by another payctl run \(pid \d+, started /);
    held.close();
    Journal.open(busy, 'capture').close();
  });

  it('takes over the lock of a run that was killed', () => {
    const path = join(dir(), 'j.ndjson');
    appendFileSync(`${path}.lock`, '999999999');
    const j = Journal.open(path, 'capture');
    j.close();
  });
});

describe('progressLine', () => {
  it.each([
    [0, 100, 0, '[........................] 0/100 0.0/s ETA --'],
    [50, 100, 5, '[############............] 50/100 10/s ETA 5s'],
    [100, 1000, 1, '[##......................] 100/1000 100/s ETA 9s'],
    [10, 1000, 10, '[........................] 10/1000 1.0/s ETA 16m30s'],
  ])('%i of %i after %is', (done, total, seconds, line) => {
    expect(progressLine(done, total, seconds)).toBe(line);
  });
});
