#!/usr/bin/env node
// CommonJS (bin/package.json says so): an ES module entry would start Node's ES module loader, a few
// milliseconds of every run that nothing here needs.
// No V8 flags here: a flag that changes V8's flag hash makes Node 22 reject the code cache of its own
// built-in modules, and every run then compiles them from source. The heap is steadied at run time
// where a long run's rows are written (src/cli/render-result.ts).
'use strict';

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
require('node:module').enableCompileCache();
// dist/ is CommonJS too (scripts/build.mjs says why).
require('../dist/cli.cjs').main(process.argv.slice(2));
