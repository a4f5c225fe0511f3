// Bundles src/ into dist/. Entry points are split so that `--version` and `--help`
// load only the command declarations; handlers, the HTTP layer and the sandbox are
// separate chunks pulled in by dynamic import().
import { build } from 'esbuild';
import { isBuiltin } from 'node:module';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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

/**
 * undici checks its own invariants with `assert(value)` and nothing else of node:assert, whose loading
 * (its diff printer, error class and colours) costs ~5 ms on every call to the service. The stand-in
 * throws the same way when an invariant fails: an Error with code ERR_ASSERTION.
 */
const undiciAssert = {
  name: 'undici-assert',
  setup(b) {
    b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.importer.includes('node_modules/undici/') ? { path: 'assert', namespace: 'undici-assert' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'undici-assert' }, () => ({
      contents: `module.exports = function assert(value, message) {
        if (!value) throw Object.assign(new Error(message ?? 'undici: internal invariant failed'), { code: 'ERR_ASSERTION' });
      };`,
      loader: 'js',
    }));
  },
};

/**
 * exceljs's zip writer (archiver) is bundled too: loaded from node_modules its ~200 small CommonJS files
 * cost ~50 ms of resolving and compiling on every xlsx export. One of them (archiver-utils 2) still
 * calls the deprecated `new Buffer()`, which Node lets pass quietly only inside node_modules: bundled,
 * every export would print DEP0005. Its three calls become the calls Node's own warning names, with the
 * same results (a zero-filled buffer of a size; a string's bytes); a build that finds other than
 * those three fails below.
 */
const BUFFER_CALLS = [
  ['new Buffer(size)', 'Buffer.alloc(size)'],
  ['new Buffer(0)', 'Buffer.alloc(0)'],
  ['new Buffer(source)', 'Buffer.from(source)'],
];
const modernBuffers = {
  name: 'modern-buffers',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]archiver-utils[\\/]index\.js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      if (!text.includes('new Buffer(')) return undefined; // archiver-utils 3 (under zip-stream) has none
      for (const [old, now] of BUFFER_CALLS) {
        if (!text.includes(old)) throw new Error(`${args.path}: "${old}" not found (archiver-utils changed?)`);
        text = text.replaceAll(old, now);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * Parts of the zip writer payctl never runs: archiver's directory and glob inputs (readdir-glob;
 * archiver-utils' file.expand through glob) and its tar format (tar-stream). exceljs only appends
 * in-memory entries to a zip. They become stand-ins that refuse (a seventh of the xlsx chunk).
 */
const xlsxTrimmed = {
  name: 'xlsx-trimmed',
  setup(b) {
    b.onResolve({ filter: /^(glob|readdir-glob|tar-stream)$/ }, (args) =>
      /node_modules[\\/]archiver(-utils)?[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'xlsx-unused' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'xlsx-unused' }, (args) => ({
      contents: `const refuse = () => { throw new Error('${args.path} is not part of payctl'); };
        module.exports = Object.assign(refuse, { sync: refuse, pack: refuse });`,
      loader: 'js',
    }));
  },
};

/**
 * Node's own modules come from `process.getBuiltinModule()`, never through the ESM loader: an ESM
 * `import` of a built-in builds a namespace of all its exports, which runs every lazy getter. On
 * Node 24 `import 'node:http'` then loads Node's internal undici for `http.WebSocket` (~40 ms),
 * `node:process` costs ~7 ms, `node:fs` (its `promises`) and `node:util` ~5 ms each, where
 * getBuiltinModule costs nothing for modules already loaded. A require() from bundled CommonJS
 * (undici) gets the module object here; static imports are rewritten after the build (below).
 */
const builtinRequires = {
  name: 'builtin-requires',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      args.kind === 'require-call' && isBuiltin(args.path)
        ? { path: args.path.replace(/^(node:)?/, 'node:'), namespace: 'builtin-require' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * A static `import {a as b} from "node:x"` in a chunk becomes `const {a: b} = process.getBuiltinModule("node:x")`
 * on the chunk's first line (the banner's, which the source map leaves unmapped), and the import
 * itself is blanked with as many spaces, so every mapped line and column stays where it was.
 * Built-ins have no evaluation order to keep: they are complete before any chunk runs.
 */
const BANNER = '/* payctl: built-ins */';
const IMPORT = /import\s*(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s*as\s+([\w$]+))?\s*from\s*"(node:[\w/]+)";?/g;
function builtinsDirect(file, text) {
  const decls = [];
  const body = text.slice(BANNER.length).replace(IMPORT, (whole, def, named, star, id) => {
    if (star) throw new Error(`${file}: import * as ${star} from "${id}" (use named imports)`);
    const get = `process.getBuiltinModule(${JSON.stringify(id)})`;
    // `import process from "node:process"` (the MCP SDK's stdio): the global is the same object.
    if (def && !(def === 'process' && id === 'node:process')) decls.push(`const ${def}=${get};`);
    if (named?.trim()) {
      const props = named.split(',').map((n) => n.trim().replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1:$2'));
      decls.push(`const{${props.join(',')}}=${get};`);
    }
    return ' '.repeat(whole.length);
  });
  if (/(?:import|from)\s*"node:/.test(body)) throw new Error(`${file}: a static import of a built-in was left`);
  return decls.join('') + body;
}

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
  plugins: [unusedBuiltins, undiciTrimmed, undiciAssert, modernBuffers, xlsxTrimmed, builtinRequires],
  banner: { js: BANNER },
  write: false,
  // Less source for V8 to scan on every start; names are kept for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __PAYCTL_VERSION__: JSON.stringify(pkg.version), esbuildDetection: 'true' },
  logLevel: 'warning',
});

for (const out of result.outputFiles) {
  await mkdir(dirname(out.path), { recursive: true });
  if (!out.path.endsWith('.js')) await writeFile(out.path, out.contents);
  else if (!out.text.startsWith(BANNER)) throw new Error(`${out.path} does not start with the banner`);
  // Every require() of bundled CommonJS resolved to a built-in above: no chunk defines require().
  else if (/__require\(/.test(out.text)) throw new Error(`${out.path} calls require() at run time`);
  else if (/new Buffer\(/.test(out.text)) throw new Error(`${out.path} calls the deprecated new Buffer()`);
  else await writeFile(out.path, builtinsDirect(out.path, out.text));
}
await writeFile(new URL('../dist/meta.json', import.meta.url), JSON.stringify(result.metafile));
