#!/usr/bin/env -S node --max-semi-space-size=2 --liftoff-only
// V8 flags live here and nowhere else (nothing sets them at run time), and the installed-package test
// runs payctl through this line. --max-semi-space-size=2: V8 otherwise grows its young generation
// towards 16 MB over a long run, so a 100,000-row export would end ~25 MB above a 10,000-row one for
// no gain (the live data is one page). --liftoff-only: undici parses HTTP with llhttp in WebAssembly;
// V8 would recompile it with its optimising tier in the background, and the process cannot exit
// before that job ends (measured on Node 24 in README's benchmarks).
import module from 'node:module';

module.enableCompileCache();
const { main } = await import('../dist/cli.js');
main(process.argv.slice(2));
