import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, bulkCaptureArgs, expectCapturedOnce, readJournal, run, sandboxForTest, seedAuthorized } from './harness';
import type { SandboxProcess } from './harness';

let sb: SandboxProcess | undefined;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A real shell runs payctl with its stdout sent `redirect`; payctl's own exit code is written to a file. */
function shell(
  args: string[],
  redirect: string,
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const codeFile = join(sb!.home, `code-${Date.now()}`);
  const cmd = `{ ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; echo $? > ${quote(codeFile)}; } ${redirect}`;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', cmd], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', () => resolve({ code: Number(readFileSync(codeFile, 'utf8').trim()), stderr }));
  });
}

describe.each([
  ['a pipe into head -1', '| head -1', 'EPIPE'],
  ['/dev/full', '> /dev/full', 'ENOSPC'],
])('bulk capture with stdout to %s', (_name, redirect, errno) => {
  it('stops taking payments, records those in flight, exits 7 with a line on stderr; the journal finishes the run', async () => {
    sb = await sandboxForTest(['--latency', '10']);
    const ids = await seedAuthorized(sb, 300);
    const journal = join(sb.home, 'j.ndjson');
    const args = bulkCaptureArgs(sb, ids, journal);
    const res = await shell(args, redirect, sb.env);
    expect(res.code, res.stderr).toBe(7);
    expect(res.stderr).toContain(`stdout failed (${errno})`);
    expect(res.stderr).toContain(`rerun \`payctl payments capture --journal ${journal} --yes\` to finish`);
    expect(existsSync(`${journal}.lock`)).toBe(false);
    const { sent, outcomes } = readJournal(journal);
    expect(sent.filter((id) => !outcomes.has(id))).toEqual([]);
    expect(sent.length).toBeLessThan(300); // it stopped taking new ones

    const rest = await run(args, { env: sb.env });
    expect(rest.code, rest.stderr).toBe(0);
    await expectCapturedOnce(sb, 300);
  });
});
