#!/usr/bin/env -S node --max-semi-space-size=2
// V8 flags live here and nowhere else (nothing sets them at run time), and the installed-package test
// runs payctl through this line. --max-semi-space-size=2: V8 otherwise grows its young generation
// towards 16 MB over a long run, so a 100,000-row export would end ~25 MB above a 10,000-row one for
// no gain (the live data is one page). Not here: --heap-growing-percent=50 (dead buffers in a long xlsx
// export; the export asks for full collections itself instead) cost ~10 ms on every start, and
// --liftoff-only, kept on Node 20, costs ~18 ms per call on Node 24.
import module from 'node:module';

// npm installs despite `engines` (it only warns), so an older Node gets one line instead of a trace.
if (!/^(22\.(2[2-9]|[3-9]\d)|24\.(1[5-9]|[2-9]\d)|(2[5-9]|[3-9]\d))\./.test(process.versions.node)) {
  process.stderr.write(`payctl: needs Node 22.22 or 24.15 or later; this is Node ${process.versions.node}\n`);
  process.exit(1);
}
module.enableCompileCache();
// The bundle's chunks import each other by relative path, and Node's resolver spends ~0.4 ms on each
// (stat, realpath, the package.json scope lookup); a call to the service loads ~30 of them. Within
// dist/ the answer is known: the file next to the importer, an ES module. Anything else goes to Node.
const dist = new URL('../dist/', import.meta.url).href;
module.registerHooks({
  resolve(specifier, context, nextResolve) {
    return specifier.startsWith('./') && context.parentURL?.startsWith(dist)
      ? { url: new URL(specifier, context.parentURL).href, format: 'module', shortCircuit: true }
      : nextResolve(specifier, context);
  },
});
const { main } = await import('../dist/cli.js');
main(process.argv.slice(2));
