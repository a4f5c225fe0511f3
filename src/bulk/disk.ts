import {
  closeSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { pathKind } from '../output/path-kind';
import type { PathKind } from '../output/path-kind';

/** One open file of a Disk. Every call is synchronous and throws the errno error (ENOSPC, EIO) as node:fs does. */
export interface DiskFile {
  /** Writes at the end of the file; returns how many bytes went (possibly fewer than given: the caller writes the rest). */
  append(data: Uint8Array): number;
  /** Durable: returns once everything appended so far is on the disk. */
  sync(): void;
  /** Optional: the same as `sync` without blocking the event loop (the real disk's fsync on the thread pool). */
  flush?(): Promise<void>;
  /** Up to `length` bytes from `position` (fewer at the end of the file). */
  read(position: number, length: number): Uint8Array;
  size(): number;
  truncate(length: number): void;
  close(): void;
}

export type { PathKind };

/**
 * Seam: the journal's file operations. The real one is `realDisk` (node:fs); a simulation passes one
 * held in memory that can tear a write at any byte, refuse it (ENOSPC, EIO) or lose what was not synced.
 */
export interface Disk {
  /** `append`: created 0600 if missing, written at the end. `read`: must exist. */
  open(path: string, how: 'append' | 'read'): DiskFile;
  /** Follows symbolic links, as opening does. */
  kind(path: string): PathKind;
  mkdirp(dir: string): void;
}

class NodeFile implements DiskFile {
  constructor(private readonly fd: number) {}
  append(data: Uint8Array): number {
    return writeSync(this.fd, data);
  }
  sync(): void {
    fsyncSync(this.fd);
  }
  flush(): Promise<void> {
    return new Promise((resolve, reject) => fsync(this.fd, (err) => (err ? reject(err) : resolve())));
  }
  read(position: number, length: number): Uint8Array {
    const buf = Buffer.alloc(length);
    const n = readSync(this.fd, buf, 0, length, position);
    return buf.subarray(0, n);
  }
  size(): number {
    return fstatSync(this.fd).size;
  }
  truncate(length: number): void {
    ftruncateSync(this.fd, length);
  }
  close(): void {
    closeSync(this.fd);
  }
}

export const realDisk: Disk = {
  open(path, how) {
    return new NodeFile(openSync(path, how === 'append' ? 'a+' : 'r', 0o600));
  },
  kind: pathKind,
  mkdirp(dir) {
    mkdirSync(dir, { recursive: true });
  },
};
