// Bundles src/ into dist/. Entry points are split so that `--version` and `--help`
// load only the command declarations; handlers, the HTTP layer and the sandbox are
// separate chunks pulled in by dynamic import().
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { readFile, writeFile } from 'node:fs/promises';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
/**
 * Built-in modules that bundled dependencies load at start-up for features payctl never uses:
 * commander's executable subcommands (child_process), undici's HTTP/2 client (http2; payctl never
 * enables allowH2) and node:http, which undici's HTTP/1 client reads for two things only (the
 * default header size limit, and an identity check on proxied request bodies). Loading them costs
 * milliseconds on every run, so they resolve to stand-ins.
 */
const unusedBuiltins = {
  name: 'unused-builtins',
  setup(b) {
    const stubs = { 'node:child_process': 'commander', 'node:http2': 'undici', 'node:http': 'undici' };
    b.onResolve({ filter: /^node:(child_process|http2|http)$/ }, (args) =>
      args.importer.includes(`node_modules/${stubs[args.path]}/`)
        ? { path: args.path, namespace: 'unused-builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'unused-builtin' }, (args) => ({
      contents: {
        'node:http2': 'module.exports = { constants: {} };',
        'node:http': 'module.exports = { maxHeaderSize: 16384, IncomingMessage: class IncomingMessage {} };',
        'node:child_process': 'module.exports = {};',
      }[args.path],
      loader: 'js',
    }));
  },
};

/**
 * undici is bundled whole (nothing of it loads from node_modules at run time, so a user's install
 * cannot mix two versions), less two parts payctl never runs: the HTTP/2 client (needs `allowH2`,
 * never set) and the fetch body helpers (FormData/Blob bodies, never sent) become stand-ins that
 * refuse. Its experimental Milo parser is left out the way Node's own bundled undici leaves it out
 * (the `esbuildDetection` define below); llhttp parses every response.
 */
const undiciTrimmed = {
  name: 'undici-trimmed',
  setup(b) {
    b.onResolve({ filter: /^(\.\/client-h2\.js|\.\.\/web\/fetch\/body\.js)$/ }, (args) =>
      args.importer.includes('node_modules/undici/lib/dispatcher/')
        ? { path: args.path, namespace: 'undici-unused' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'undici-unused' }, (args) => {
      const refuse = `() => { throw new Error('${args.path} is not part of payctl'); }`;
      const contents = args.path.endsWith('body.js')
        ? `module.exports = { extractBody: ${refuse} };`
        : `module.exports = ${refuse};`;
      return { contents, loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Runtime dependencies stay in node_modules. zod, commander and undici are build-time packages:
  // bundled, only the parts payctl uses are compiled (zod as ~200 separate ES modules cost ~60 ms on
  // every API call), and an install cannot pair this build with another version of them.
  external: Object.keys(pkg.dependencies),
  sourcemap: 'linked',
  metafile: true,
  plugins: [unusedBuiltins, undiciTrimmed],
  // Less source for V8 to scan on every start; names are kept for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Bundled CommonJS (commander, undici) still calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __payctlRequire } from 'node:module'; const require = __payctlRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  define: { __PAYCTL_VERSION__: JSON.stringify(pkg.version), esbuildDetection: 'true' },
  logLevel: 'warning',
});

await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
