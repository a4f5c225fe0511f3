#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=50
// V8 flags live here and nowhere else (nothing sets them at run time; the single executable's build
// reads them from this line), and the installed-package test runs payctl through this line.
// --max-semi-space-size=2: V8 otherwise grows its young generation over a long run, so a 100,000-row
// export would end well above a 10,000-row one for no gain (the live data is one page).
// --heap-growing-percent=50: after a full collection V8 lets the old generation grow by a factor it
// derives from how fast that collection ran against the program; on a loaded machine that measure
// swings, and at its highest the next full collection never comes during an export while dead pages
// promoted out of the young generation (and the response buffers they hold) pile up. A fixed factor
// keeps a long export's peak where a short one's is (docs/decisions.md, docs/benchmarks.md).
import module from 'node:module';

// npm installs despite `engines` (it only warns), so an older Node gets one line instead of a trace.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22) || (major > 22 && major < 24) || (major === 24 && minor < 15)) {
  process.stderr.write(
    `payctl: needs Node 22.22 or 24.15 or later; this is Node ${process.versions.node}. ` +
      'Or use the single executable, which needs no Node: `npm run build:exe` in a clone makes build/payctl-linux-x64\n',
  );
  process.exit(1);
}
// Node keeps the compiled code of dist/ on disk, so later runs skip parsing and compiling it.
module.enableCompileCache();
// dist/ is CommonJS (scripts/build.mjs says why): required, it loads without the ES module loader.
module
  .createRequire(import.meta.url)('../dist/cli.cjs')
  .main(process.argv.slice(2));
