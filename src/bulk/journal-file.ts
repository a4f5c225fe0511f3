import type { DiskFile } from './disk';

/** The journal could not be written (ENOSPC, EIO, a short write that would not finish): the run stops. */
export class JournalWriteError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(`cannot write the journal ${path} (${code})`, { cause });
  }
}

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'EIO';

/**
 * The journal's file as it is appended to: every record whole or a failure that stops the run, and
 * fsyncs shared by the records of one moment (group commit).
 */
export class DurableFile {
  private running: Promise<void> | undefined;
  /** Bytes known to be on the disk. */
  private synced = 0;
  /** Set once a write or an fsync failed: nothing more may be announced. */
  failure: JournalWriteError | undefined;

  constructor(
    private readonly path: string,
    private readonly file: DiskFile,
    /** Bytes in the file (the offset the next record starts at). */
    public size: number,
    private readonly defer: (fn: () => void) => void,
  ) {
    this.synced = size;
  }

  /** Appends `data` whole: a short write is continued, and one that writes nothing is a failure. */
  append(data: Buffer) {
    if (this.failure) throw this.failure;
    try {
      for (let off = 0; off < data.length;) {
        const n = this.file.append(data.subarray(off));
        if (!(n > 0)) throw Object.assign(new Error('a write wrote nothing'), { code: 'EIO' });
        off += n;
        this.size += n;
      }
    } catch (err) {
      this.failure = new JournalWriteError(this.path, codeOf(err), err);
      throw this.failure;
    }
  }

  /**
   * Resolves once everything appended so far is on the disk. Records appended while an fsync is on
   * its way share the next one (group commit): many workers announcing requests at one moment cost
   * one fsync, and the event loop keeps taking answers while it runs (DiskFile.flush, when offered).
   */
  async durable(): Promise<void> {
    const target = this.size;
    while (this.synced < target) {
      if (this.failure) throw this.failure;
      this.running ??= this.syncOnce().finally(() => (this.running = undefined));
      await this.running;
    }
    if (this.failure) throw this.failure;
  }

  private async syncOnce(): Promise<void> {
    await new Promise<void>((resolve) => this.defer(resolve)); // let the records of this moment join
    const upTo = this.size;
    try {
      if (this.file.flush) await this.file.flush();
      else this.file.sync();
      this.synced = Math.max(this.synced, upTo);
    } catch (err) {
      this.failure ??= new JournalWriteError(this.path, codeOf(err), err);
    }
  }

  close() {
    try {
      this.file.sync();
    } catch (err) {
      this.failure ??= new JournalWriteError(this.path, codeOf(err), err);
    }
    this.file.close();
  }
}
