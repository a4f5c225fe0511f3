import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIRS, manPages, referenceFiles } from '../../../src/cli/reference/files';

const ROOT = new URL('../../../', import.meta.url).pathname;
const files = referenceFiles();
const STALE = 'is out of date with the program: run `npm run docs` and commit the result';

describe('the generated reference matches the program', () => {
  it('makes a page and a man page for every command, and the topic pages', () => {
    expect(files.get('man/payctl.1')).toMatch(/^\.TH "PAYCTL" "1"/);
    expect(files.has('man/payctl-payments-refund.1')).toBe(true);
    expect(files.has('docs/reference/payctl-payments-refund.md')).toBe(true);
    for (const page of ['docs/exit-codes.md', 'docs/configuration.md', 'docs/formats.md'])
      expect(files.has(page)).toBe(true);
    expect([...files.keys()].filter((f) => f.startsWith('man/')).length).toBeGreaterThan(40);
  });

  it('writes man pages in plain ASCII roff, every line that starts with a dot a request', () => {
    for (const [path, text] of files) {
      if (!path.startsWith('man/')) continue;
      expect(text, path).toMatch(/^[\x00-\x7f]*$/);
      for (const line of text.split('\n').filter((l) => l.startsWith('.')))
        expect(line, path).toMatch(/^\.(TH|SH|SS|PP|TP|IP|RS|RE|nf|fi|B) ?/);
    }
  });

  it.each([...files.keys()])('%s is as `npm run docs` makes it', (path) => {
    const committed = existsSync(ROOT + path) ? readFileSync(ROOT + path, 'utf8') : undefined;
    expect(committed, `${path} is missing: run \`npm run docs\` and commit the result`).toBeDefined();
    expect(committed === files.get(path), `${path} ${STALE}`).toBe(true);
  });

  it("lists every man page in package.json's man, which npm installs", () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { man?: string[]; files: string[] };
    expect(pkg.man, `package.json's man ${STALE}`).toEqual(manPages(files));
    expect(pkg.files).toContain('man');
  });

  it('leaves no page of a command that no longer exists', () => {
    const stale = REFERENCE_DIRS.flatMap((dir) => readdirSync(ROOT + dir).map((name) => `${dir}/${name}`)).filter(
      (path) => !files.has(path),
    );
    expect(stale, `not made by the program any more: run \`npm run docs\``).toEqual([]);
  });
});
