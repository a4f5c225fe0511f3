import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    for (const id of ['pay_a', 'pay_b', 'pay_c', 'pay_d']) j.sent(id, 1, 100, 'INR');
    j.outcome('pay_a', 'done', { status: 'captured' });
    j.outcome('pay_b', 'failed', { reason: 'refused' });
    j.outcome('pay_c', 'unknown', { reason: 'no answer' });
    j.close();
    const again = Journal.open(path, 'capture');
    expect(['pay_a', 'pay_b', 'pay_c', 'pay_d', 'pay_e'].map((id) => again.stateOf(id))).toEqual(['done', 'failed', 'unknown', 'in_flight', 'new']);
    expect(again.reasonOf('pay_b')).toBe('refused');
    again.close();
  });

  it('ignores a last line cut short by a kill, and starts its own records on a new line', () => {
    const path = join(dir(), 'j.ndjson');
    writeFileSync(path, '{"type":"run","op":"refund","at":"x","pid":1,"items":1}\n{"type":"sent","id":"pay_a","line":1,"at":"x"}\n{"type":"outc');
    const j = Journal.open(path, 'refund');
    expect(j.stateOf('pay_a')).toBe('in_flight');
    j.outcome('pay_a', 'unknown', {});
    j.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(JSON.parse(lines[3]!)).toMatchObject({ type: 'outcome', id: 'pay_a', result: 'unknown' });
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
    expect(() => Journal.open(busy, 'capture')).toThrow(/in use by another payctl run \(pid \d+\)/);
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
