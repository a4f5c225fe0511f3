#!/usr/bin/env -S node --max-semi-space-size=2
// V8's command-line flags live here (the single executable's build reads them from this line), and the
// installed-package test runs payctl through this line.
// --max-semi-space-size=2: V8 otherwise grows its young generation over a long run, so a 100,000-row
// export would end well above a 10,000-row one for no gain (the live data is one page).
// The growth of the old generation is fixed where a list's rows are written (src/cli/render-result.ts):
// a flag here that changes V8's flag hash costs every command its built-ins' code cache.
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
