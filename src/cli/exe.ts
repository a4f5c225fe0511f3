/**
 * The single executable's entry (scripts/build-exe.mjs, Node's `useSnapshot`). This module runs once,
 * when the executable is built: it evaluates what a command that calls the service needs before its
 * request (the command tree, settings, the runtime, the profile store, the service's schemas, the
 * renderer), and the executable then starts from that heap instead of evaluating it again. The
 * function given to setDeserializeMainFunction is what runs when a person starts the executable, so
 * argv and the environment are read there, never at module load.
 *
 * Not in the snapshot: undici (the HTTP layer, src/client/pool.ts). It loads node:http and
 * node:http2, whose native bindings cannot be serialized (building the snapshot aborts with "global
 * handle not serialized"), so it loads at run time, by the same import() as in the npm package. So
 * do the sandbox, exports and prompts, which a call to the service does not need.
 */
import { startupSnapshot } from 'node:v8';
import { main } from './main';
import './run';
import './settings';
import './render-result';
import '../commands/runtime';
import '../commands/payments/handlers';
import '../config/route';
import '../config/profiles';
import '../contract';
import '../output/render';

startupSnapshot.setDeserializeMainFunction(() => {
  // A single executable's argv is [executable, executable, ...arguments], as a script's would be.
  void main(process.argv.slice(2));
});
