// Builds build/payctl-<platform>-<arch>: one file that runs payctl with no Node installed (Node's
// single executable applications). It holds the npm package: its entry (src/cli/exe.ts, what
// dist/cli.cjs does), which Node compiles into a blob with its code cache (`useCodeCache`), and as the
// blob's assets dist/run.cjs, dist/mcp-sdk.cjs and each runtime dependency bundled into one CommonJS
// file (a SEA's scripts can only require built-ins), which src/cli/load-run.ts loads with payctl's own
// code cache of each command; postject injects the blob into a copy of the Node binary running this
// script. Not a start-up snapshot: the executable would deserialize the whole snapshotted heap on
// every start, `--version` included (docs/decisions.md).
import './require-node.mjs';
import { asciiOnly } from './ascii-only.mjs';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const work = `${root}/build/sea`;
const shebangFlags = readFileSync(`${root}/bin/payctl.js`, 'utf8')
  .split('\n', 1)[0]
  .split(' ')
  .filter((word) => word.startsWith('--'));
const exe = `${root}/build/payctl-${process.platform}-${process.arch}`;
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// The npm package's files, built again unless they are newer than every source they are built from.
const newest = (path) =>
  statSync(path).isDirectory()
    ? Math.max(0, ...readdirSync(path).map((f) => newest(join(path, f))))
    : statSync(path).mtimeMs;
const sources = ['src', 'package.json', 'scripts/build.mjs'].map((p) => newest(`${root}/${p}`));
if (!existsSync(`${root}/dist/run.cjs`) || statSync(`${root}/dist/run.cjs`).mtimeMs < Math.max(...sources))
  execFileSync(process.execPath, [`${root}/scripts/build.mjs`], { stdio: 'inherit' });
// The helps `payctl --help` and `payctl GROUP --help` print, as the npm build bakes them (from its program).
const baked = execFileSync(process.execPath, [`${root}/bin/payctl.js`, '__baked-help'], {
  encoding: 'utf8',
  maxBuffer: 1 << 24,
});

// The same constants the npm build defines: the version, the baked helps, and where the rest of the
// program is (an asset of the executable, not a file beside it).
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node24', logLevel: 'warning' };
await build({
  ...common,
  entryPoints: [`${root}/src/cli/exe.ts`],
  outfile: `${work}/payctl.cjs`,
  minifyWhitespace: true,
  minifySyntax: true,
  define: {
    __PAYCTL_RUN__: JSON.stringify('asset'),
    __PAYCTL_VERSION__: JSON.stringify(pkg.version),
    __PAYCTL_BAKED_HELP__: JSON.stringify(baked),
  },
});
asciiOnly(`${work}/payctl.cjs`, 'src/cli/exe.ts');
const assets = { 'run.cjs': `${root}/dist/run.cjs`, 'mcp-sdk.cjs': `${root}/dist/mcp-sdk.cjs` };
// Each runtime dependency, which dist/run.cjs requires by name, as one file.
for (const dep of Object.keys(pkg.dependencies)) {
  const out = `${work}/node_modules/${dep}.cjs`;
  mkdirSync(dirname(out), { recursive: true });
  await build({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(dep)});`, resolveDir: root, loader: 'js' },
    outfile: out,
    minifyWhitespace: true,
  });
  asciiOnly(out, dep);
  assets[`node_modules/${dep}.cjs`] = out;
}

const config = `${work}/sea-config.json`;
writeFileSync(
  config,
  JSON.stringify({
    main: `${work}/payctl.cjs`,
    assets,
    output: `${work}/payctl.blob`,
    disableExperimentalSEAWarning: true,
    // The entry's compiled code travels in the blob: no parse or compile at start.
    useCodeCache: true,
    // bin/payctl.js's shebang flags (read from it: V8 flags have one place), so the file behaves like
    // the npm package.
    execArgv: shebangFlags,
  }),
);
// Both steps print progress and, for postject, warnings about ELF notes it does not touch: shown only
// if a step fails (execFileSync then throws with its output).
const quiet = { stdio: ['ignore', 'pipe', 'pipe'] };
// The code cache is made under the V8 flags the executable runs with: V8 rejects a cache made under others.
execFileSync(process.execPath, [...shebangFlags, '--experimental-sea-config', config], quiet);

rmSync(exe, { force: true });
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
const postject = join(root, 'node_modules/postject/dist/cli.js');
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
execFileSync(process.execPath, [postject, exe, 'NODE_SEA_BLOB', `${work}/payctl.blob`, '--sentinel-fuse', fuse], quiet);
rmSync(work, { recursive: true, force: true });
const mb = (statSync(exe).size / 1e6).toFixed(0);
process.stdout.write(`built ${exe.slice(root.length + 1)}: ${mb} MB, Node ${process.versions.node} inside\n`);
