/**
 * The single executable's entry (scripts/build-exe.mjs): what bin/payctl.js does, less its Node check
 * (the executable carries its own Node). As in the npm package, this script answers `--version` and the
 * baked helps, and the rest of the program is loaded only when a command runs: an asset of the
 * executable, compiled with payctl's own code cache (./load-run).
 */
import { main } from './main';

// A single executable's argv is [executable, executable, ...arguments], as a script's would be.
void main(process.argv.slice(2));
