import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BLOCK = 1 << 16;

/**
 * The rows in reverse order, with flat memory: they are spooled as JSON lines to a private temporary
 * file (0600 in a 0700 directory, removed however the walk ends) and read back from its end.
 */
export async function* reversed(items: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const dir = await mkdtemp(join(tmpdir(), 'payctl-spool-'));
  const file = await open(join(dir, 'rows.ndjson'), 'w+', 0o600);
  try {
    let text = '';
    for await (const item of items) {
      text += `${JSON.stringify(item)}\n`;
      if (text.length > BLOCK) {
        await file.write(text);
        text = '';
      }
    }
    if (text) await file.write(text);
    let pos = (await file.stat()).size;
    let tail = Buffer.alloc(0);
    // A newline byte never occurs inside a UTF-8 character or a JSON line, so lines split on bytes.
    while (pos > 0) {
      const n = Math.min(BLOCK, pos);
      pos -= n;
      const chunk = Buffer.alloc(n);
      await file.read(chunk, 0, n, pos);
      const data = tail.length ? Buffer.concat([chunk, tail]) : chunk;
      let end = data.length;
      for (let nl = data.lastIndexOf(10, end - 1); nl >= 0; nl = data.lastIndexOf(10, end - 1)) {
        if (nl + 1 < end) yield JSON.parse(data.toString('utf8', nl + 1, end));
        end = nl;
        if (end === 0) break;
      }
      tail = Buffer.from(data.subarray(0, end));
    }
    if (tail.length) yield JSON.parse(tail.toString('utf8'));
  } finally {
    await file.close();
    await rm(dir, { recursive: true, force: true });
  }
}
