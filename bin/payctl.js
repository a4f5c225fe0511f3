#!/usr/bin/env -S node --max-semi-space-size=2
import module from 'node:module';

// The shebang caps V8's young generation at 2 MB a half: V8 otherwise grows it towards 16 MB over
// any long run, so a 100,000-row export would end ~25 MB larger than a 10,000-row one for no gain
// (the live data is one page). Short commands never reach the cap.

// Node >= 22.1 can cache compiled code between runs; on Node 20 this is simply absent.
module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
main(process.argv.slice(2));
