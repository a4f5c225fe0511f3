import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The newest change time under the given paths (files or folders). */
function newest(paths: string[]): number {
  return Math.max(
    ...paths.map((p) => {
      const st = statSync(join(root, p), { throwIfNoEntry: false });
      if (!st) return 0;
      if (!st.isDirectory()) return st.mtimeMs;
      return newest(readdirSync(join(root, p)).map((e) => join(p, e)));
    }),
    0,
  );
}

/**
 * e2e tests spawn the built bin, so build it first, unless dist/ is already newer than everything the
 * build reads (`npm test` and CI build once, then run the tests on each Node line with that build).
 */
export default function setup() {
  const built = statSync(join(root, 'dist/cli.cjs'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > newest(['src', 'scripts/build.mjs', 'package.json', 'package-lock.json'])) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
