import type { Reporter, TestModule } from 'vitest/node';

/**
 * Lists, after vitest's own summary, every test skipped because the machine lacks a tool (the tests
 * call `needs()` from test/tools.ts), grouped by what was missing, so that a green run says what it
 * did not check.
 */
export default class SkipsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const byNote = new Map<string, string[]>();
    for (const mod of modules)
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped' || !result.note?.startsWith('no ')) continue;
        byNote.set(result.note, [
          ...(byNote.get(result.note) ?? []),
          `${test.module.moduleId.replace(/^.*\/test\//, 'test/')} > ${test.fullName}`,
        ]);
      }
    if (!byNote.size) return;
    const count = (n: number) => `${n} test${n === 1 ? '' : 's'}`;
    const summary = [...byNote].map(([note, names]) => `${count(names.length)} (${note})`).join(', ');
    const lines = [...byNote.values()].flat().map((name) => `  - ${name}`);
    process.stdout.write(
      `\nskipped: ${summary}\n${lines.join('\n')}\n.ci/run installs the tools and builds the executable, and lets none of these skip.\n`,
    );
  }
}
