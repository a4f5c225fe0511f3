import { describe, expect, it } from 'vitest';
import type { Disk, DiskFile } from '../../../src/bulk/disk';
import { Journal, JournalWriteError } from '../../../src/bulk/journal';

/** A disk in memory: what was synced survives a "crash"; writes can be cut short or refused. */
class MemDisk implements Disk {
  files = new Map<string, { data: Buffer; synced: number }>();
  syncs = 0;
  /** Bytes the next appends may write in all before they fail (undefined: no limit). */
  room: number | undefined;
  /** At most this many bytes per append call (a short write). */
  perWrite = Infinity;

  open(path: string): DiskFile {
    if (!this.files.has(path)) this.files.set(path, { data: Buffer.alloc(0), synced: 0 });
    const f = this.files.get(path)!;
    return {
      append: (data) => {
        let n = Math.min(data.length, this.perWrite);
        if (this.room !== undefined) {
          if (this.room === 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          n = Math.min(n, this.room);
          this.room -= n;
        }
        f.data = Buffer.concat([f.data, Buffer.from(data.subarray(0, n))]);
        return n;
      },
      sync: () => {
        this.syncs++;
        f.synced = f.data.length;
      },
      read: (pos, len) => f.data.subarray(pos, pos + len),
      size: () => f.data.length,
      truncate: (len) => {
        f.data = f.data.subarray(0, len);
      },
      close: () => undefined,
    };
  }
  kind(path: string) {
    return this.files.has(path) ? ('file' as const) : ('missing' as const);
  }
  mkdirp() {}
  text(path: string) {
    return this.files.get(path)!.data.toString('utf8');
  }
}

const noLock = () => ({ release: () => undefined });
const deps = (disk: MemDisk) => ({ disk, lock: noLock, now: () => 0 });
const rows = (n: number) =>
  (async function* () {
    for (let i = 1; i <= n; i++) yield { line: i + 1, id: `pay_${String(i).padStart(14, '0')}`, amount: 100 };
  })();

describe('the journal is durable or the run stops', () => {
  it('a short write is continued until the record is whole', async () => {
    const disk = new MemDisk();
    disk.perWrite = 7;
    const j = Journal.open('/j', 'refund', {}, deps(disk));
    j.sent({ id: 'pay_a', line: 2, amount: 100, key: 'pcb_k' });
    await j.durable();
    j.close();
    expect(JSON.parse(disk.text('/j').trim())).toMatchObject({ id: 'pay_a', type: 'sent', key: 'pcb_k' });
  });

  it('a full disk at any byte of a record stops the run; the torn record makes its payment unknown, never unsent', () => {
    const record = `${JSON.stringify({ id: 'pay_a', type: 'sent', line: 2, amount: 100, key: 'pcb_k', at: 'x' })}\n`;
    for (let room = 0; room < record.length; room++) {
      const disk = new MemDisk();
      disk.room = room;
      const j = Journal.open('/j', 'refund', {}, deps(disk));
      expect(() => j.sent({ id: 'pay_a', line: 2, amount: 100, key: 'pcb_k' })).toThrow(JournalWriteError);
      expect(j.failure?.code).toBe('ENOSPC');
      j.outcome('pay_a', 'done', {}); // kept, not thrown: the row is still reported
      j.close();
      disk.room = undefined;
      const again = Journal.open('/j', 'refund', {}, deps(disk));
      // The id survives from its 10th byte on: the payment is in flight (read back by key first).
      if (room >= '{"id":"pay_a"'.length) expect(again.stateOf('pay_a')).toBe('in_flight');
      if (room > 0) expect(again.repaired).toBe(room);
      again.close();
    }
  });

  it('records announced at one moment share one fsync (group commit), and each waits for it', async () => {
    const disk = new MemDisk();
    const j = Journal.open('/j', 'capture', {}, deps(disk));
    const before = disk.syncs;
    const waits = Array.from({ length: 16 }, (_, i) => {
      j.sent({ id: `pay_${i}`, line: i + 2, amount: 100 });
      return j.durable();
    });
    await Promise.all(waits);
    expect(disk.syncs - before).toBe(1);
    expect(disk.files.get('/j')!.synced).toBe(disk.files.get('/j')!.data.length);
    j.close();
  });

  it('the plan is written whole and durable, and read back a chunk at a time', async () => {
    const disk = new MemDisk();
    const j = Journal.open('/j', 'refund', {}, deps(disk));
    await j.writePlan('refund', 'abc', 'abc', rows(5000), 5000);
    expect(disk.files.get('/j')!.synced).toBe(disk.files.get('/j')!.data.length);
    j.close();
    const again = Journal.open('/j', 'refund', {}, deps(disk));
    expect(again.plan).toMatchObject({ digest: 'abc', runId: 'abc', total: 5000 });
    let n = 0;
    for await (const item of again.planItems()) {
      n++;
      expect(item.line).toBe(n + 1);
    }
    expect(n).toBe(5000);
    again.close();
  });

  it('a plan cut short (no `planned` record) is no plan', async () => {
    const disk = new MemDisk();
    const j = Journal.open('/j', 'refund', {}, deps(disk));
    await j.writePlan('refund', 'abc', 'abc', rows(3), 3);
    j.close();
    const f = disk.files.get('/j')!;
    f.data = f.data.subarray(0, f.data.lastIndexOf('{"type":"planned"'));
    const again = Journal.open('/j', 'refund', {}, deps(disk));
    expect(again.plan).toBeUndefined();
    again.close();
  });
});
