import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, sandboxForFile, scratchDir, seedCaptured } from './harness';

/**
 * --out is a regular file or a clear refusal, through the built bin: a FIFO nobody reads (which would
 * block payctl's open forever), a device or a directory is exit 2 before any request, and the path is
 * left as it was. /dev/null and /dev/stdout stay written through (exports-complete covers them).
 */
const sb = sandboxForFile();

describe('--out that is not a regular file', () => {
  it.each([
    [
      'a FIFO nobody reads',
      (dir: string) => (execFileSync('mkfifo', [join(dir, 'rows.csv')]), join(dir, 'rows.csv')),
      /is a named pipe \(FIFO\), not a regular file; nothing was sent/,
    ],
    [
      'a directory',
      (dir: string) => (mkdirSync(join(dir, 'rows.csv')), join(dir, 'rows.csv')),
      /is a directory; nothing was sent/,
    ],
    ['a device', () => '/dev/zero', /is a character device, not a regular file; nothing was sent/],
  ])('%s: a list and a refund end at once with exit 2, no request sent', async (_name, make, message) => {
    const [id] = await seedCaptured(sb, 1);
    const target = make(scratchDir('payctl-out-'));
    const before = (await sb.stats()).requests;
    // A hang would end at the run's own deadline with no exit code (killed), never with 2.
    const list = await run(['payments', 'list', '--out', target], { env: sb.env, timeoutMs: 20_000 });
    const refund = await run(['payments', 'refund', id!, '--amount', '100', '--yes', '--out', target, '-o', 'json'], {
      env: sb.env,
      timeoutMs: 20_000,
    });
    for (const r of [list, refund]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect((await sb.stats()).requests).toBe(before);
    expect((await sb.stats()).applied.refunds[id!]).toBeUndefined();
    if (target !== '/dev/zero') expect(lstatSync(target).isFile()).toBe(false);
  });
});
