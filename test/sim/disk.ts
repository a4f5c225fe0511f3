import type { Rng } from './rng';

/**
 * A simulated disk with a page cache: appends are seen by reads at once but survive a crash only once
 * synced; a crash keeps what was synced plus any prefix of what was not (a torn tail). Appends can be
 * cut short or fail (ENOSPC, EIO), and a sync can fail, as the seed chooses. Shaped as src/bulk/disk's
 * Disk, so the real journal runs on it.
 */
interface SimFile {
  data: Buffer;
  durable: Buffer;
}

export interface DiskFaults {
  /** Chance that an append is cut short, or fails with EIO. */
  writeRate: number;
  /** Chance that a sync fails with EIO. */
  fsyncRate: number;
  /** The disk fills up after this many bytes (a nearly full disk). */
  capacity: number;
}

const fsError = (code: string, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: simulated failure, ${syscall} '${path}'`), { code, syscall, path, errno: -1 });

export interface SimDiskFile {
  append(data: Uint8Array): number;
  sync(): void;
  read(position: number, length: number): Uint8Array;
  size(): number;
  truncate(length: number): void;
  close(): void;
}

export class SimDisk {
  readonly files = new Map<string, SimFile>();
  readonly dirs = new Set<string>();
  private used = 0;
  /** Appends and syncs counted, so a scenario can kill the process before any one of them. */
  ops = 0;
  onOp: (() => void) | undefined;
  /** Told of every append, sync and crash (a replayed seed prints them). */
  log: (line: string) => void = () => undefined;
  /** Bumped by a crash: handles opened before it are gone. */
  private epoch = 0;

  constructor(
    private readonly rng: Rng,
    readonly faults: DiskFaults,
  ) {}

  private tick() {
    this.ops++;
    this.onOp?.();
  }

  /** The Disk of one process: once it is dead, nothing it does reaches the disk. */
  forProcess(alive: () => boolean) {
    return {
      open: (path: string, how: 'append' | 'read'): SimDiskFile => {
        if (!alive()) throw fsError('EBADF', 'open', path);
        return this.open(path, how, alive);
      },
      kind: (path: string): 'missing' | 'file' | 'other' =>
        this.files.has(path) ? 'file' : this.dirs.has(path) ? 'other' : 'missing',
      mkdirp: (dir: string): void => {
        const parts = dir.split('/');
        for (let i = 1; i <= parts.length; i++) this.dirs.add(parts.slice(0, i).join('/') || '/');
      },
    };
  }

  private open(path: string, how: 'append' | 'read', alive: () => boolean): SimDiskFile {
    let f = this.files.get(path);
    if (!f) {
      if (how === 'read') throw fsError('ENOENT', 'open', path);
      f = { data: Buffer.alloc(0), durable: Buffer.alloc(0) };
      this.files.set(path, f);
    }
    const file = f;
    const epoch = this.epoch;
    const live = (syscall: string) => {
      if (!alive() || epoch !== this.epoch || this.files.get(path) !== file) throw fsError('EBADF', syscall, path);
    };
    return {
      append: (data) => {
        live('write');
        this.tick();
        live('write'); // killed just before this write: it never happens
        let n = data.length;
        const room = this.faults.capacity - this.used;
        if (n > 0 && room <= 0) {
          this.log('    disk: append failed (ENOSPC)');
          throw fsError('ENOSPC', 'write', path);
        }
        if (n > room) n = room;
        else if (n > 0 && this.rng.chance(this.faults.writeRate)) {
          n = this.rng.int(0, n - 1);
          if (this.rng.chance(0.3) || n === 0) {
            file.data = Buffer.concat([file.data, Buffer.from(data.subarray(0, n))]);
            this.log(`    disk: append of ${data.length} bytes wrote ${n}, then EIO`);
            throw fsError('EIO', 'write', path);
          }
        }
        file.data = Buffer.concat([file.data, Buffer.from(data.subarray(0, n))]);
        this.used += n;
        this.log(
          `    disk: append ${n} of ${data.length} bytes${n < data.length ? ' (short)' : ''}: ${Buffer.from(data.subarray(0, 90)).toString().trim()}`,
        );
        return n;
      },
      sync: () => {
        live('fsync');
        this.tick();
        live('fsync');
        if (this.rng.chance(this.faults.fsyncRate)) {
          this.log('    disk: sync failed (EIO)');
          throw fsError('EIO', 'fsync', path);
        }
        file.durable = Buffer.from(file.data);
        this.log(`    disk: synced ${file.data.length} bytes`);
      },
      read: (position, length) => {
        live('read');
        return Buffer.from(file.data.subarray(position, position + length));
      },
      size: () => {
        live('fstat');
        return file.data.length;
      },
      truncate: (length) => {
        live('ftruncate');
        file.data = Buffer.from(file.data.subarray(0, length));
      },
      close: () => undefined,
    };
  }

  /**
   * Power lost: every file keeps what was synced plus a prefix of what was not, chosen by the seed
   * (none of it, all of it, or a record cut at any byte). Handles open before it are gone.
   */
  crash(): void {
    this.epoch++;
    for (const f of this.files.values()) {
      const grew = f.data.length > f.durable.length && f.data.subarray(0, f.durable.length).equals(f.durable);
      const keep = grew ? this.rng.int(0, f.data.length - f.durable.length) : 0;
      this.log(
        `    disk: crash keeps ${f.durable.length} synced bytes + ${keep} of ${f.data.length - f.durable.length} unsynced`,
      );
      f.data = Buffer.concat([f.durable, f.data.subarray(f.durable.length, f.durable.length + keep)]);
      f.durable = Buffer.from(f.data);
    }
  }

  /** Every whole line of what is on the disk for good (synced), in every file: what a crash now would keep. */
  durableLines(): string[] {
    const out: string[] = [];
    for (const f of this.files.values()) {
      const text = f.durable.toString('utf8');
      const whole = text.slice(0, text.lastIndexOf('\n') + 1);
      if (whole) out.push(...whole.slice(0, -1).split('\n'));
    }
    return out;
  }

  /** The operator made room on a full disk before running again. */
  makeRoom(): void {
    this.used = 0;
    for (const f of this.files.values()) this.used += f.data.length;
    if (this.used >= this.faults.capacity) this.faults.capacity = this.used + 4_096;
  }
}
