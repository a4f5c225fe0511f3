// Writes the command reference (docs/reference/*.md, man/*.1) and the help topics' pages from the
// command tree, as src/cli/reference/files.ts makes them: bundled to a temporary module, imported,
// written. Files in docs/reference/ and man/ that the program no longer makes are removed. The table of
// layers in docs/architecture.md is written from the lint configuration's arrows (eslint.config.js LAYERS).
import './require-node.mjs';
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
// Inside the checkout, so the bundle's imports of node_modules resolve.
await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
const work = await mkdtemp(join(root, 'node_modules/.cache/payctl-docs-'));
try {
  const entry = join(work, 'files.mjs');
  await build({
    entryPoints: [join(root, 'src/cli/reference/files.ts'), join(root, 'src/cli/reference/layers.ts')],
    outdir: work,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
  });
  const { referenceFiles, manPages, REFERENCE_DIRS } = await import(pathToFileURL(entry).href);
  const { layerTable, withLayerTable } = await import(pathToFileURL(join(work, 'layers.mjs')).href);
  const { LAYERS } = await import(pathToFileURL(join(root, 'eslint.config.js')).href);
  const architecture = join(root, 'docs/architecture.md');
  await writeFile(architecture, withLayerTable(await readFile(architecture, 'utf8'), layerTable(LAYERS)));
  const files = referenceFiles();
  for (const dir of REFERENCE_DIRS) {
    for (const name of await readdir(join(root, dir)).catch(() => [])) {
      if (!files.has(`${dir}/${name}`)) await rm(join(root, dir, name));
    }
  }
  for (const [path, text] of files) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  // npm installs the man pages package.json lists (a `directories.man` is not read on install).
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(await readFile(pkgPath, 'utf8'));
  pkg.man = manPages(files);
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  process.stdout.write(
    `docs: ${files.size} files written (docs/reference, man, topic pages) and the layers of docs/architecture.md\n`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
