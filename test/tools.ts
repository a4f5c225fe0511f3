import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { TestRunner } from 'vitest';

/**
 * PAYCTL_TEST_STRICT=1 (set by .ci/run, which installs every tool): a test whose tool is missing fails
 * instead of being skipped.
 */
export const STRICT = process.env.PAYCTL_TEST_STRICT === '1';

const found = new Map<string, boolean>();
const onPath = (tool: string) => spawnSync('sh', ['-c', 'command -v "$0"', tool], { stdio: 'ignore' }).status === 0;

/**
 * Called inside a test that drives a tool the machine may lack (tmux, zsh, fish): without it the test
 * is skipped with the note "no TOOL", which the skips reporter lists at the end of the run.
 */
export function needs(...tools: string[]) {
  const missing = tools.filter((t) => !(found.get(t) ?? found.set(t, onPath(t)).get(t)));
  if (!missing.length) return;
  const note = `no ${missing.join(', no ')}`;
  if (STRICT) throw new Error(`${note} on PATH, and PAYCTL_TEST_STRICT=1 lets no test skip`);
  const test = TestRunner.getCurrentTest();
  if (!test) throw new Error(`needs(${tools.join(', ')}) called outside a test`);
  test.context.skip(note);
}

/** Like `needs`, for a file a build step makes (the single executable): skipped, and listed, when absent. */
export function needsFile(path: string, madeBy: string) {
  if (existsSync(path)) return;
  const note = `no ${basename(path)}: ${madeBy} makes it`;
  if (STRICT) throw new Error(`${note}, and PAYCTL_TEST_STRICT=1 lets no test skip`);
  TestRunner.getCurrentTest()!.context.skip(note);
}
