import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** e2e tests spawn the built bin, so build it once before they run. */
export default function setup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
