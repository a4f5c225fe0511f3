// Bundles src/ into dist/ as CommonJS files and writes completions/ from them. dist/cli.cjs is the
// entry: `--version` and the baked helps (the root's and each group's), nothing else. dist/run.cjs is
// the rest of the program, every dependency bundled but the runtime ones: one file, so a call costs
// Node one read and one compile (cached on disk by bin/payctl.js) instead of resolving and linking
// dozens of ES module chunks. What a command does not need stays unevaluated in it: esbuild wraps each
// module reached by import() in a function that runs on first import, and a built-in loads when the
// module that requires it is evaluated (docs/decisions.md has the measurements behind this layout).
import './require-node.mjs';
import { asciiOnly } from './ascii-only.mjs';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * The three files are entry points of their own, each built from a source file, and require each other
 * by path: main.ts requires ./run.cjs where the build defines __PAYCTL_RUN__ (from source it imports
 * ./run), and the MCP server's SDK imports resolve to ./mcp-sdk.cjs, whose entry (src/cli/mcp-sdk.ts)
 * re-exports the modules it uses. So run.cjs is required only when a command runs, and mcp-sdk.cjs (the
 * SDK with ajv, a third of the program's size) only by `payctl mcp`: every call would otherwise have
 * Node read and V8 scan it. payctl hands the SDK plain JSON (tool schemas, results), so no object
 * crosses between its copy of a package and run.cjs's.
 */
const MCP_SDK_MODULES = ['server/index.js', 'server/stdio.js', 'types.js'].map((m) => `@modelcontextprotocol/sdk/${m}`);
const ENTRIES = [
  ['src/cli/main.ts', 'cli.cjs'],
  ['src/cli/run.ts', 'run.cjs'],
  ['src/cli/mcp-sdk.ts', 'mcp-sdk.cjs'],
];

/** The esbuild configuration; `baked` is the help content `payctl --help` and `payctl GROUP --help` print from. */
const options = (entry, out, baked) => ({
  entryPoints: [entry],
  outfile: `dist/${out}`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  // Runtime dependencies load from node_modules. zod and commander are build-time packages: bundled,
  // an install cannot pair this build with another version of them.
  external: [...Object.keys(pkg.dependencies), './run.cjs', './mcp-sdk.cjs'],
  ...(entry !== 'src/cli/mcp-sdk.ts' && {
    alias: Object.fromEntries(MCP_SDK_MODULES.map((m) => [m, './mcp-sdk.cjs'])),
  }),
  // import() of another file becomes require(): through the ES module loader, a CommonJS file is first
  // scanned whole for its export names (on Node 22 that scan of run.cjs cost more than the call).
  supported: { 'dynamic-import': false },
  sourcemap: 'linked',
  metafile: true,
  // Less source for V8 to scan on every start; names are kept for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  define: {
    __PAYCTL_RUN__: JSON.stringify('file'),
    __PAYCTL_VERSION__: JSON.stringify(pkg.version),
    ...(baked !== undefined && { __PAYCTL_BAKED_HELP__: JSON.stringify(baked) }),
  },
  logLevel: 'warning',
});

const buildAll = (baked) => Promise.all(ENTRIES.map(([entry, out]) => build(options(entry, out, baked))));

// Two passes: the first program prints the content of its helps (commander's terms and descriptions,
// `payctl __baked-help`), which the second bakes in, so `payctl --help` and `payctl GROUP --help` need
// no commander.
const bin = new URL('../bin/payctl.js', import.meta.url).pathname;
await buildAll();
const { stdout: baked } = await promisify(execFile)(process.execPath, [bin, '__baked-help'], { maxBuffer: 1 << 24 });
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const results = await buildAll(baked);
for (const [entry, out] of ENTRIES) asciiOnly(`dist/${out}`, entry);
const outputs = Object.assign({}, ...results.map((r) => r.metafile.outputs));
const inputs = Object.assign({}, ...results.map((r) => r.metafile.inputs));
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify({ inputs, outputs }));

// The shell completion scripts the package ships, printed by the program just built from its own
// command tree (so a new command needs no edit here or in them); the three run at once.
await mkdir(new URL('../completions', import.meta.url), { recursive: true });
await Promise.all(
  Object.entries({ bash: 'payctl.bash', zsh: '_payctl', fish: 'payctl.fish' }).map(async ([shell, file]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, 'completion', shell], { maxBuffer: 1 << 24 });
    await writeFile(new URL(`../completions/${file}`, import.meta.url), stdout);
  }),
);
