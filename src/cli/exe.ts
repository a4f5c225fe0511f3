/**
 * The single executable's entry (scripts/build-exe.mjs): what bin/payctl.js does, less its Node check
 * (the executable carries its own Node). The whole program is one script whose compiled code the
 * executable carries (`useCodeCache`); each part of it is evaluated when a command first needs it, as
 * in the npm package, so `--version` evaluates almost nothing.
 */
import { main } from './main';

// A single executable's argv is [executable, executable, ...arguments], as a script's would be.
void main(process.argv.slice(2));
