import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// statSync can be made to miss once: the file then appears before the second look, as when another run
// of the same journal creates it between them.
const missOnce = vi.hoisted(() => ({ path: undefined as string | undefined }));
vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return {
    ...real,
    statSync: ((path: string, ...rest: unknown[]) => {
      if (path === missOnce.path) {
        missOnce.path = undefined;
        throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      }
      return (real.statSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof real.statSync,
  };
});

const { pathKind } = await import('../../../src/output/path-kind');

const dir = mkdtempSync(join(tmpdir(), 'payctl-path-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('what a path is, before payctl opens it', () => {
  it('tells a missing path, a regular file, a directory and links to each', () => {
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    mkdirSync(join(dir, 'dir'));
    symlinkSync(file, join(dir, 'to-file'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    expect(pathKind(join(dir, 'missing'))).toBe('missing');
    expect(pathKind(file)).toBe('file');
    expect(pathKind(join(dir, 'dir'))).toBe('other');
    expect(pathKind(join(dir, 'to-file'))).toBe('file');
    // Opening it would create its target somewhere else.
    expect(pathKind(join(dir, 'dangling'))).toBe('other');
  });

  it('a file made between its two looks (another run starting on the same journal) is a file', () => {
    const made = join(dir, 'made-meanwhile');
    writeFileSync(made, '');
    missOnce.path = made;
    expect(pathKind(made)).toBe('file');
    expect(fs.statSync(made).isFile()).toBe(true);
  });
});
