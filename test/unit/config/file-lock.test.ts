import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../src/config/file-lock';

const dir = mkdtempSync(join(tmpdir(), 'payctl-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the config file lock', () => {
  it('is held while the work runs and gone after, also when the work throws', () => {
    const target = join(dir, 'a.json');
    withFileLock(target, () => expect(existsSync(`${target}.lock`)).toBe(true));
    expect(existsSync(`${target}.lock`)).toBe(false);
    expect(() =>
      withFileLock(target, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('left by a process that is gone is broken, not waited on', () => {
    const target = join(dir, 'b.json');
    // Pid 2^22 + 1 is above Linux's pid limit: no process has it.
    writeFileSync(`${target}.lock`, `${2 ** 22 + 1} deadbeef\n`);
    const started = Date.now();
    expect(withFileLock(target, () => 42)).toBe(42);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('held by a live process is not taken: after waiting, one line naming the file and the holder', () => {
    const target = join(dir, 'c.json');
    writeFileSync(`${target}.lock`, `${process.ppid} cafe\n`);
    expect(() => withFileLock(target, () => 1, 300)).toThrow(
      new RegExp(`c\\.json is locked by another payctl \\(held by process ${process.ppid}\\)`),
    );
    expect(existsSync(`${target}.lock`)).toBe(true);
  });
});
