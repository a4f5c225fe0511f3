// Bundles src/ into dist/. Entry points are split so that `--version` and `--help`
// load only the command declarations; handlers, the HTTP layer and the sandbox are
// separate chunks pulled in by dynamic import().
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __PAYCTL_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
