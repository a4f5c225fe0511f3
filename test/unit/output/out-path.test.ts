import { mkdtempSync, readFileSync, lstatSync, symlinkSync, writeFileSync, readlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOutTarget, outPath, writeAtomically } from '../../../src/output/atomic-file';
import { UsageError } from '../../../src/contract/errors';

const fill = (text: string) => async (out: NodeJS.WritableStream) => {
  out.write(text);
  return 1;
};

describe('--out never replaces what is not a regular file', () => {
  it('a symlink to a file: the file gets the rows, the link stays a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-out-'));
    writeFileSync(join(dir, 'real.csv'), 'old\n');
    symlinkSync('real.csv', join(dir, 'link.csv'));
    await writeAtomically(join(dir, 'link.csv'), fill('new\n'));
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'link.csv'))).toBe('real.csv');
    expect(readFileSync(join(dir, 'real.csv'), 'utf8')).toBe('new\n');
  });

  it('a dangling symlink: its target is created, the link stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-out-'));
    symlinkSync('made.csv', join(dir, 'link.csv'));
    await writeAtomically(join(dir, 'link.csv'), fill('x\n'));
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'made.csv'), 'utf8')).toBe('x\n');
  });

  it('/dev/null is written through, never replaced; a named pipe or another device is exit 2, never opened', async () => {
    expect(await outPath('/dev/null')).toEqual({ path: '/dev/null', through: true });
    await writeAtomically('/dev/null', fill('gone\n'));
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'payctl-out-'));
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(checkOutTarget(fifo)).rejects.toThrow(
      /is a named pipe \(FIFO\), not a regular file; nothing was sent/,
    );
    symlinkSync(fifo, join(dir, 'to-pipe.csv'));
    await expect(checkOutTarget(join(dir, 'to-pipe.csv'))).rejects.toThrow(UsageError);
    await expect(checkOutTarget('/dev/zero')).rejects.toThrow(/is a character device/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('/dev/stdout goes through to whatever the descriptor is', async () => {
    const out = await outPath('/dev/stdout');
    expect(out.through).toBe(true);
    expect(out.path).toMatch(/^\/proc\/self\/fd\/1$/);
  });

  it('a directory or a block device is exit 2 before anything is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payctl-out-'));
    await expect(checkOutTarget(dir)).rejects.toThrow(UsageError);
    symlinkSync(dir, join(dir, 'to-dir'));
    await expect(checkOutTarget(join(dir, 'to-dir'))).rejects.toThrow(/is a directory/);
    await expect(checkOutTarget(join(dir, 'missing', 'x.csv'))).rejects.toThrow(/does not exist/);
  });
});
