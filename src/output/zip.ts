import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';
import type { DeflateRaw } from 'node:zlib';

/**
 * A streaming zip writer, enough for an xlsx: each part is deflated as it is written (node:zlib, off
 * the main thread) and goes out at once, its local header saying "sizes follow" (a data descriptor
 * after the data), so nothing but the current chunk is held in memory. The central directory comes
 * last. No ZIP64: a part or the file passing 4 GiB is refused, never written wrong.
 */

/** Sizes and offsets are 32 bits; 0xffffffff itself is ZIP64's marker. */
const LIMIT = 0xffffffff;
/** Text encoded into one buffer before it is checksummed and handed to deflate (each hand-over costs). */
const CHUNK = 256 * 1024;
/** Deflated bytes per output buffer. */
const OUT_CHUNK = 64 * 1024;
/** Encoded text deflate may hold before the writer waits for it. */
const AHEAD = 1024 * 1024;
/** Chunk buffers kept for reuse: as many as deflate may hold waiting, and the one being filled. */
const SPARE = AHEAD / CHUNK + 1;
/** Bit 3: sizes and CRC in a data descriptor; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

const tooLarge = (what: string) =>
  new Error(`${what} would pass 4 GiB, the most a zip without ZIP64 holds: export a shorter range, or as CSV`);

/** MS-DOS time and date fields (UTC: a zip entry carries no zone). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

type Out = NodeJS.WritableStream;

/** Waits until `out` takes more (or fails: then the caller's race with the stream's error ends the wait). */
const drained = (out: Out) => new Promise<void>((resolve) => out.once('drain', () => resolve()));

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly stamp = dosTime(new Date());
  private open = false;

  private readonly level: number;
  private readonly limit: number;

  /** `level`: deflate's (1: a quarter larger than the default 6, at a third of its work); `limit`: for tests. */
  constructor(
    private readonly out: Out,
    { level = 1, limit = LIMIT }: { level?: number; limit?: number } = {},
  ) {
    this.level = level;
    this.limit = Math.min(limit, LIMIT);
  }

  /** Bytes to the output, counted for the offsets. */
  private put(buf: Buffer): Promise<void> | undefined {
    this.offset += buf.length;
    if (this.offset > this.limit) throw tooLarge('the file');
    return this.out.write(buf) ? undefined : drained(this.out);
  }

  /** Starts a part; write its text through the part, then close it before the next. */
  async part(name: string): Promise<ZipPart> {
    if (this.open) throw new Error('zip: a part is still open');
    this.open = true;
    const entry: Entry = { name: Buffer.from(name, 'utf8'), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(VERSION, 4);
    head.writeUInt16LE(FLAGS, 6);
    head.writeUInt16LE(DEFLATE, 8);
    head.writeUInt16LE(this.stamp.time, 10);
    head.writeUInt16LE(this.stamp.date, 12);
    // CRC and sizes (14-25) stay zero: the data descriptor carries them. Name length, no extra field.
    head.writeUInt16LE(entry.name.length, 26);
    await this.put(Buffer.concat([head, entry.name]));
    const part = { level: this.level, limit: this.limit };
    return new ZipPart(
      entry,
      part,
      this.out,
      (bytes) => this.count(bytes),
      () => this.closed(entry),
    );
  }

  /** A whole small part at once. */
  async file(name: string, text: string): Promise<void> {
    const p = await this.part(name);
    await p.write(text);
    await p.close();
  }

  /** Deflated bytes a part wrote (from deflate's 'data' event: checked by the part, never thrown there). */
  private count(bytes: number): boolean {
    this.offset += bytes;
    return this.offset <= this.limit;
  }

  private async closed(entry: Entry) {
    const desc = Buffer.alloc(16);
    desc.writeUInt32LE(0x08074b50, 0);
    desc.writeUInt32LE(entry.crc, 4);
    desc.writeUInt32LE(entry.compressed, 8);
    desc.writeUInt32LE(entry.size, 12);
    await this.put(desc);
    this.entries.push(entry);
    this.open = false;
  }

  /** The central directory and its end record; the output stream is left for the caller to end. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('zip: a part is still open');
    const start = this.offset;
    const records = this.entries.map((e) => {
      const r = Buffer.alloc(46);
      r.writeUInt32LE(0x02014b50, 0);
      r.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, spec 2.0
      r.writeUInt16LE(VERSION, 6);
      r.writeUInt16LE(FLAGS, 8);
      r.writeUInt16LE(DEFLATE, 10);
      r.writeUInt16LE(this.stamp.time, 12);
      r.writeUInt16LE(this.stamp.date, 14);
      r.writeUInt32LE(e.crc, 16);
      r.writeUInt32LE(e.compressed, 20);
      r.writeUInt32LE(e.size, 24);
      r.writeUInt16LE(e.name.length, 28);
      // Extra, comment, disk, internal and external attributes: zero.
      r.writeUInt32LE(e.offset, 42);
      return Buffer.concat([r, e.name]);
    });
    const dir = Buffer.concat(records);
    if (start + dir.length + 22 > this.limit) throw tooLarge('the file');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(start, 16);
    await this.put(Buffer.concat([dir, end]));
  }
}

/** One part being written: text in, deflated bytes straight to the output (paused while it is full). */
export class ZipPart {
  // Text is encoded into this buffer as it comes (one string is one copy, and nothing but the buffer
  // outlives it), then checksummed and handed to deflate a chunk at a time. A buffer deflate has
  // consumed is used again: a new one per chunk left each outliving a young-generation collection
  // or two to V8's next full one, which a long export reached later the longer it ran.
  private buf: Buffer = Buffer.allocUnsafeSlow(CHUNK);
  private used = 0;
  private readonly spare: Buffer[] = [];
  private readonly deflate: DeflateRaw;
  private readonly ended: Promise<unknown>;
  private fits = true;
  private readonly limit: number;

  constructor(
    private readonly entry: Entry,
    { level, limit }: { level: number; limit: number },
    out: Out,
    count: (bytes: number) => boolean,
    private readonly done: () => Promise<void>,
  ) {
    this.limit = limit;
    this.deflate = createDeflateRaw({ level, chunkSize: OUT_CHUNK });
    let waiting = false;
    this.deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      if (!count(chunk.length)) this.fits = false;
      if (!out.write(chunk) && !waiting) {
        waiting = true;
        this.deflate.pause();
        out.once('drain', () => {
          waiting = false;
          this.deflate.resume();
        });
      }
    });
    this.ended = once(this.deflate, 'end');
    this.ended.catch(() => undefined);
  }

  /** Adds text; a promise when the caller should wait for deflate or the output to catch up. */
  write(text: string): Promise<void> | undefined {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: text that may not fit sends the chunk first.
    if (this.used + text.length * 3 <= CHUNK) {
      this.used += this.buf.write(text, this.used, 'utf8');
      return undefined;
    }
    this.flush();
    if (text.length * 3 <= CHUNK) this.used = this.buf.write(text, 0, 'utf8');
    else this.push(Buffer.from(text, 'utf8'));
    return this.behind();
  }

  /** A promise when deflate holds more than it should: the writer waits for it. */
  private behind(): Promise<void> | undefined {
    if (this.deflate.writableLength < AHEAD) return undefined;
    return once(this.deflate, 'drain').then(() => undefined);
  }

  private flush() {
    if (!this.used) return;
    const whole = this.buf;
    const full = whole.subarray(0, this.used);
    this.buf = this.spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    this.used = 0;
    this.push(full, whole);
  }

  /** `whole`: the chunk buffer `buf` is part of, taken back once deflate has read it (at most what AHEAD lets wait). */
  private push(buf: Buffer, whole?: Buffer) {
    this.entry.crc = crc32(buf, this.entry.crc);
    this.entry.size += buf.length;
    if (this.entry.size >= this.limit) throw tooLarge(`the part ${this.entry.name.toString()}`);
    if (!this.fits) throw tooLarge('the file');
    if (!whole) this.deflate.write(buf);
    else
      this.deflate.write(buf, (err) => {
        if (!err && this.spare.length < SPARE) this.spare.push(whole);
      });
  }

  /** Ends the part: the rest deflated and out, then its data descriptor. */
  async close(): Promise<void> {
    this.flush();
    this.deflate.end();
    await this.ended;
    if (!this.fits || this.entry.compressed >= this.limit) throw tooLarge('the file');
    await this.done();
  }
}
