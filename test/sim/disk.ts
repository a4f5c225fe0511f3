import type { Rng } from './rng';

/**
 * A simulated disk with a page cache: writes are seen by reads at once but survive a crash only once
 * fsynced; a crash keeps what was synced plus any prefix of what was not (a torn tail). Writes can be
 * cut short or fail (ENOSPC, EIO) as the seed chooses.
 */
interface SimFile {
  data: Buffer;
  durable: Buffer;
  mode: number;
  ino: number;
}

interface Handle {
  path: string;
  append: boolean;
  pos: number;
  proc: number;
}

export interface DiskFaults {
  /** Chance that a write is cut short, or fails. */
  writeRate: number;
  /** Chance that an fsync fails with EIO. */
  fsyncRate: number;
  /** The disk fills up after this many bytes written (a nearly full disk). */
  capacity: number;
}

const fsError = (code: string, syscall: string, path?: string) =>
  Object.assign(new Error(`${code}: simulated, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall, path });

export class SimDisk {
  readonly files = new Map<string, SimFile>();
  readonly dirs = new Set<string>(['/']);
  private readonly handles = new Map<number, Handle>();
  private nextFd = 100;
  private nextIno = 1;
  private written = 0;
  /** Durable writes and syncs counted, so a scenario can kill the process at any one of them. */
  ops = 0;
  onOp: (() => void) | undefined;

  constructor(
    private readonly rng: Rng,
    readonly faults: DiskFaults,
  ) {}

  private tick() {
    this.ops++;
    this.onOp?.();
  }

  private file(path: string, syscall: string): SimFile {
    const f = this.files.get(path);
    if (!f) throw fsError('ENOENT', syscall, path);
    return f;
  }

  private handle(fd: number, syscall: string): Handle {
    const h = this.handles.get(fd);
    if (!h) throw fsError('EBADF', syscall);
    return h;
  }

  existsSync(path: string): boolean {
    return this.files.has(path) || this.dirs.has(path);
  }

  mkdirSync(path: string): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) this.dirs.add(`/${parts.slice(0, i).join('/')}`);
  }

  openSync(path: string, flags: string, mode = 0o666, proc = 0): number {
    if (this.dirs.has(path)) throw fsError('EISDIR', 'open', path);
    let f = this.files.get(path);
    if (f && flags.includes('x')) throw fsError('EEXIST', 'open', path);
    if (!f) {
      if (flags === 'r' || flags === 'r+') throw fsError('ENOENT', 'open', path);
      f = { data: Buffer.alloc(0), durable: Buffer.alloc(0), mode, ino: this.nextIno++ };
      this.files.set(path, f);
    }
    if (flags.startsWith('w')) f.data = Buffer.alloc(0);
    const fd = this.nextFd++;
    this.handles.set(fd, { path, append: flags.startsWith('a'), pos: 0, proc });
    return fd;
  }

  writeSync(fd: number, chunk: string | Uint8Array, offset?: number, length?: number): number {
    const h = this.handle(fd, 'write');
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    if (typeof chunk !== 'string' && offset !== undefined)
      bytes = bytes.subarray(offset, offset + (length ?? bytes.length - offset));
    this.tick();
    if (!this.handles.has(fd)) throw fsError('EBADF', 'write'); // the process died just now
    const f = this.file(h.path, 'write');
    let n = bytes.length;
    const room = this.faults.capacity - this.written;
    let failure: string | undefined;
    if (room <= 0) throw fsError('ENOSPC', 'write', h.path);
    if (n > room) n = room;
    else if (n > 0 && this.rng.chance(this.faults.writeRate)) {
      failure = this.rng.weighted({ short: 3, EIO: 1 });
      n = this.rng.int(0, n - 1);
      if (failure === 'EIO' && n === 0) throw fsError('EIO', 'write', h.path);
    }
    const at = h.append ? f.data.length : h.pos;
    const next = Buffer.alloc(Math.max(f.data.length, at + n));
    f.data.copy(next);
    bytes.copy(next, at, 0, n);
    f.data = next;
    h.pos = at + n;
    this.written += n;
    return n;
  }

  fsyncSync(fd: number): void {
    const h = this.handle(fd, 'fsync');
    this.tick();
    if (!this.handles.has(fd)) throw fsError('EBADF', 'fsync');
    if (this.rng.chance(this.faults.fsyncRate)) throw fsError('EIO', 'fsync', h.path);
    const f = this.file(h.path, 'fsync');
    f.durable = Buffer.from(f.data);
  }

  ftruncateSync(fd: number, len = 0): void {
    const h = this.handle(fd, 'ftruncate');
    const f = this.file(h.path, 'ftruncate');
    f.data = Buffer.from(f.data.subarray(0, len));
  }

  closeSync(fd: number): void {
    this.handle(fd, 'close');
    this.handles.delete(fd);
  }

  readFileSync(path: string): Buffer {
    return Buffer.from(this.file(path, 'open').data);
  }

  fstatSync(fd: number) {
    const h = this.handle(fd, 'fstat');
    return this.statOf(h.path, this.file(h.path, 'fstat'));
  }

  statSync(path: string) {
    if (this.dirs.has(path)) return { size: 0, mode: 0o40700, ino: 0, isFile: () => false, isDirectory: () => true };
    return this.statOf(path, this.file(path, 'stat'));
  }

  private statOf(_path: string, f: SimFile) {
    return { size: f.data.length, mode: 0o100000 | f.mode, ino: f.ino, isFile: () => true, isDirectory: () => false };
  }

  chmodSync(path: string, mode: number): void {
    this.file(path, 'chmod').mode = mode;
  }

  unlinkSync(path: string): void {
    this.file(path, 'unlink');
    this.files.delete(path);
  }

  renameSync(from: string, to: string): void {
    this.files.set(to, this.file(from, 'rename'));
    this.files.delete(from);
  }

  linkSync(from: string, to: string): void {
    if (this.files.has(to)) throw fsError('EEXIST', 'link', to);
    this.files.set(to, this.file(from, 'link'));
  }

  /**
   * Power lost: every file keeps what was synced plus a prefix of what was not, chosen by the seed
   * (none of it, all of it, or a record cut at any byte). Open handles are gone.
   */
  crash(): void {
    for (const f of this.files.values()) {
      const tail = f.data.subarray(0, f.data.length).equals(f.durable) ? 0 : f.data.length - f.durable.length;
      const extends_ = tail > 0 && f.data.subarray(0, f.durable.length).equals(f.durable);
      const keep = extends_ ? this.rng.int(0, tail) : 0;
      f.data = Buffer.concat([f.durable, f.data.subarray(f.durable.length, f.durable.length + keep)]);
      f.durable = Buffer.from(f.data);
    }
    this.handles.clear();
  }

  /** A full disk freed (the operator made room) before a resume. */
  makeRoom(): void {
    this.written = 0;
  }
}
