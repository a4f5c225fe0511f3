import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, expectShown, markdownFiles, runExamples } from './examples';

/**
 * Every example of README.md and of docs/*.md (guides, topic pages, anything added later) runs as a
 * test; the command reference's own examples run in reference-examples.test.ts.
 */
const DOCUMENTS = ['README.md', ...markdownFiles('docs')];

describe('README', () => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');

  it('is at most 10 kB: a first read, with the rest in docs/', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(10_240);
  });

  it('shows each reader something to run, and links every document in docs/', () => {
    expectShown(readme, [
      'npm ci && npm run demo',
      'npm test',
      'payctl payments refund',
      'payctl sandbox',
      'payctl mcp',
    ]);
    for (const doc of markdownFiles('docs').filter((d) => d !== 'docs/README.md'))
      expect(readFileSync(`${ROOT}docs/README.md`, 'utf8'), `docs/README.md links ${doc}`).toContain(doc.slice(5));
  });

  it('refers to nothing a reader of the repository cannot see', () => {
    for (const doc of DOCUMENTS) expect(readFileSync(ROOT + doc, 'utf8'), doc).not.toMatch(/\bissue \d+|DESIGN/);
  });
});

runExamples(DOCUMENTS);
