// Bundles src/ into dist/ and writes completions/ from it. One entry, split so that `--version` and
// `--help` load neither commander nor the command declarations, and a command only its own group's,
// while handlers, the HTTP layer, exports and the sandbox are chunks that dynamic import() pulls in
// when a command needs them. A plain esbuild configuration: every dependency is bundled as published,
// or left in node_modules (the runtime dependencies).
import './require-node.mjs';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** The esbuild configuration; `rootHelp` is what `payctl --help` prints from (see src/cli/root-help.ts). */
const options = (rootHelp) => ({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Runtime dependencies load from node_modules. zod, commander and undici are build-time packages:
  // bundled, an install cannot pair this build with another version of them.
  external: Object.keys(pkg.dependencies),
  // Bundled CommonJS (undici, commander) calls require() for Node's built-ins; an ES module has none.
  banner: {
    js: "import { createRequire as __payctlRequire } from 'node:module';const require = __payctlRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  metafile: true,
  // Less source for V8 to scan on every start; names are kept for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: {
    __PAYCTL_VERSION__: JSON.stringify(pkg.version),
    ...(rootHelp !== undefined && { __PAYCTL_ROOT_HELP__: JSON.stringify(rootHelp) }),
  },
  logLevel: 'warning',
});

// Two passes: the first program prints the content of its root help (commander's terms and
// descriptions, `payctl __root-help`), which the second bakes in, so `payctl --help` needs no commander.
const bin = new URL('../bin/payctl.js', import.meta.url).pathname;
await build(options());
const { stdout: rootHelp } = await promisify(execFile)(process.execPath, [bin, '__root-help']);
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const result = await build(options(rootHelp));
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));

// The shell completion scripts the package ships, printed by the program just built from its own
// command tree (so a new command needs no edit here or in them); the three run at once.
await mkdir(new URL('../completions', import.meta.url), { recursive: true });
await Promise.all(
  Object.entries({ bash: 'payctl.bash', zsh: '_payctl', fish: 'payctl.fish' }).map(async ([shell, file]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'completion', shell], { maxBuffer: 1 << 24 });
    await writeFile(new URL(`../completions/${file}`, import.meta.url), stdout);
  }),
);
