import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_NAMES } from '../../../src/cli/environment';

const SRC = new URL('../../../src/', import.meta.url).pathname;
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** Every variable the code reads: `env.NAME`, `env[...'NAME']`, and names handed to a reader as text. */
function readByCode(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)\b/g)) if (/^[A-Z]/.test(m[1]!)) names.add(m[1]!);
    for (const m of text.matchAll(/variable\(env, ([^)]*)\)/g))
      for (const n of m[1]!.matchAll(/'([A-Za-z_]+)'/g)) names.add(n[1]!);
  }
  return names;
}

describe('the environment table (payctl help environment, docs/configuration.md)', () => {
  const read = readByCode();

  it('names every variable the code reads', () => {
    expect(read.size).toBeGreaterThan(15);
    expect([...read].filter((n) => !ENVIRONMENT_NAMES.has(n))).toEqual([]);
  });

  it('names only variables the code reads', () => {
    expect([...ENVIRONMENT_NAMES].filter((n) => !read.has(n))).toEqual([]);
  });
});
