// Bundles src/ into dist/ as CommonJS files and writes completions/ from them. dist/cli.cjs is the
// entry: `--version` and the baked helps (the root's and each group's), nothing else. dist/run.cjs is
// the rest of the program, every dependency bundled but the runtime ones: one file, so a call costs
// Node one read and one compile (cached on disk by bin/payctl.js) instead of resolving and linking
// dozens of ES module chunks. What a command does not need stays unevaluated in it: esbuild wraps each
// module reached by import() in a function that runs on first import, and a built-in loads when the
// module that requires it is evaluated (docs/decisions.md has the measurements behind this layout).
import './require-node.mjs';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { promisify } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** Packages bundled into run.cjs whose evaluation the start-up test watches for (with src/ itself). */
const TRACED_PACKAGES = /\/node_modules\/(zod|commander|@commander-js|@modelcontextprotocol\/sdk)\//;

/**
 * Each source module (and each watched package's files) reports its evaluation to
 * `globalThis.__payctlEvaluated`, which only the start-up test defines: that test holds what each
 * command evaluates, which file names alone no longer tell in one bundle. Unset, a report is one
 * property read.
 */
const evaluationTrace = {
  name: 'evaluation-trace',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const inSrc = args.path.startsWith(`${root}src/`);
      if (!inSrc && !TRACED_PACKAGES.test(args.path)) return undefined;
      const name = relative(root, args.path);
      const contents = await readFile(args.path, 'utf8');
      const loader = args.path.endsWith('.ts') ? 'ts' : 'js';
      return { contents: `${contents}\n;globalThis.__payctlEvaluated?.(${JSON.stringify(name)});\n`, loader };
    });
  },
};

/**
 * main.ts's `import('./run')` is the second file, required when a command runs: by `require`, as an
 * `import()` of it would go through the ES module loader, which first scans all of a CommonJS file
 * for its export names (on Node 22 that scan cost more than the call).
 */
const runIsItsOwnFile = {
  name: 'run-is-its-own-file',
  setup(b) {
    b.onResolve({ filter: /^\.\/run$/ }, (args) =>
      args.importer.endsWith('src/cli/main.ts') ? { path: 'run', namespace: 'run-file' } : undefined,
    );
    b.onResolve({ filter: /^\.\/run\.cjs$/ }, () => ({ path: './run.cjs', external: true }));
    b.onLoad({ filter: /.*/, namespace: 'run-file' }, () => ({ contents: "module.exports = require('./run.cjs');" }));
  },
};

/**
 * The MCP server's SDK (with ajv, its JSON schema validator) is a third file, dist/mcp-sdk.cjs, that
 * only `payctl mcp` reads: a third of the program's size that every call would otherwise have Node read
 * and V8 scan. Only the SDK's own modules are in it; payctl hands it plain JSON (tool schemas,
 * results), so no object crosses between its copy of a package and run.cjs's.
 */
const MCP_SDK = ['server/index.js', 'server/stdio.js', 'types.js'];
const mcpSdkIsItsOwnFile = {
  name: 'mcp-sdk-is-its-own-file',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/sdk\// }, (args) => ({ path: args.path, namespace: 'mcp-sdk' }));
    b.onResolve({ filter: /^\.\/mcp-sdk\.cjs$/ }, () => ({ path: './mcp-sdk.cjs', external: true }));
    b.onLoad({ filter: /.*/, namespace: 'mcp-sdk' }, (args) => ({
      contents: `module.exports = require('./mcp-sdk.cjs')[${JSON.stringify(args.path.split('/sdk/')[1])}];`,
      loader: 'js',
    }));
  },
};
const mcpSdkEntry = MCP_SDK.map((m, i) => `import * as m${i} from '@modelcontextprotocol/sdk/${m}';`)
  .concat(`module.exports = { ${MCP_SDK.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(', ')} };`)
  .join('\n');

/** The esbuild configuration; `baked` is the help content `payctl --help` and `payctl GROUP --help` print from. */
const options = (entry, out, baked) => ({
  ...(entry === MCP_SDK
    ? { stdin: { contents: mcpSdkEntry, resolveDir: root, loader: 'js' } }
    : { entryPoints: [entry] }),
  outfile: `dist/${out}`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  // Runtime dependencies load from node_modules. zod and commander are build-time packages: bundled,
  // an install cannot pair this build with another version of them.
  external: Object.keys(pkg.dependencies),
  plugins: entry === MCP_SDK ? [evaluationTrace] : [runIsItsOwnFile, mcpSdkIsItsOwnFile, evaluationTrace],
  sourcemap: 'linked',
  metafile: true,
  // Less source for V8 to scan on every start; names are kept for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  define: {
    __PAYCTL_VERSION__: JSON.stringify(pkg.version),
    ...(baked !== undefined && { __PAYCTL_BAKED_HELP__: JSON.stringify(baked) }),
  },
  logLevel: 'warning',
});

const buildAll = (baked) =>
  Promise.all([
    build(options('src/cli/main.ts', 'cli.cjs', baked)),
    build(options('src/cli/run.ts', 'run.cjs', baked)),
    build(options(MCP_SDK, 'mcp-sdk.cjs', baked)),
  ]);

// Two passes: the first program prints the content of its helps (commander's terms and descriptions,
// `payctl __baked-help`), which the second bakes in, so `payctl --help` and `payctl GROUP --help` need
// no commander.
const bin = new URL('../bin/payctl.js', import.meta.url).pathname;
await buildAll();
const { stdout: baked } = await promisify(execFile)(process.execPath, [bin, '__baked-help'], { maxBuffer: 1 << 24 });
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const results = await buildAll(baked);
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
