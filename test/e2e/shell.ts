import { spawn } from 'node:child_process';
import { BIN, assertNoSecret } from './harness';
import { shq } from './tmux';

/** `payctl` as a shell word: this Node and the built bin. */
export const PAYCTL = `${shq(process.execPath)} ${shq(BIN)}`;

/**
 * A command line run by a real shell (`sh -c`, or `bash -c` where it needs bash's own syntax), so
 * `payctl … | payctl …` is a real pipe between two processes, exactly as a person types it. Resolves to
 * the exit status of the pipeline's last command. `env` adds to the environment; an undefined value
 * removes the variable.
 */
export function shell(
  command: string,
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  opts: { shell?: 'sh' | 'bash'; cwd?: string } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const clean: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('PAYCTL_') && v !== undefined) clean[k] = v;
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete clean[k];
      else clean[k] = v;
    }
    const child = spawn(opts.shell ?? 'sh', ['-c', command], {
      cwd: opts.cwd,
      env: clean,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        assertNoSecret(stdout + stderr, `the output of ${command}`);
      } catch (err) {
        return reject(err);
      }
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A line as a person types it into bash, `payctl` being this build: its stdout goes where the line sends
 * it (a file, a pipe), the zone only as the line names it. Resolves to the exit status and stderr.
 */
export async function typed(line: string, env: Record<string, string>, cwd: string) {
  const res = await shell(
    `payctl() { ${PAYCTL} "$@"; }\n{ ${line}; } >/dev/null`,
    { ...env, PAYCTL_TZ: undefined },
    60_000,
    {
      shell: 'bash',
      cwd,
    },
  );
  return { code: res.code, stderr: res.stderr };
}
