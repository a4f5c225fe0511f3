import { execFileSync } from 'node:child_process';
import { existsSync, globSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../../eslint.config.js';
import { layerTable, withLayerTable } from '../../../src/cli/reference/layers';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** What the repository holds at its top: a name in backticks starting with one of these is a path in it. */
const TOP = new Set(
  execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.split('/')[0]!),
);

/** The names a document gives in backticks outside code blocks (`src/commands/check.ts`) that point into the repository. */
function namedPaths(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  const names = [...prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/[.,:;]+$/, ''));
  return names.filter((n) => TOP.has(n.split('/')[0]!) && (n.includes('/') || /\.\w+$/.test(n)));
}

/** Relative links to files (`[money-safety.md](money-safety.md)`), as paths from the repository's root. */
function linkedPaths(doc: string, text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => join(dirname(doc), target));
}

const exists = (path: string) =>
  path.includes('*') ? globSync(path, { cwd: ROOT }).length > 0 : existsSync(join(ROOT, path));

describe('the documents name what exists', () => {
  it('finds the names it checks', () => {
    expect(namedPaths('see `src/commands/check.ts`, `-o/--output`, `zod/mini`, and `eslint.config.js`.')).toEqual([
      'src/commands/check.ts',
      'eslint.config.js',
    ]);
    expect(namedPaths('```text\nsrc/gone.ts\n```\n`test/e2e/*.test.ts`')).toEqual(['test/e2e/*.test.ts']);
  });

  it.each(DOCS)('every path %s names in backticks or links to exists in the repository', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const missing = [...namedPaths(text), ...linkedPaths(doc, text)].filter((p) => !exists(p));
    expect(missing, `${doc} names paths that do not exist`).toEqual([]);
  });

  it("docs/architecture.md's table of layers is eslint.config.js's (run `npm run docs`)", () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(withLayerTable(doc, layerTable(LAYERS))).toBe(doc);
  });
});
