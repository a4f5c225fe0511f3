import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { exampleWorld } from './examples-world';
import { assertNoSecret } from './harness';

type World = ReturnType<typeof exampleWorld>;

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** An example line running in bash, as a terminal runs it: its own process group, which Ctrl-C reaches whole. */
export interface Job {
  out: () => string;
  err: () => string;
  done: Promise<Ended>;
  running: () => boolean;
  /** Ctrl-C: SIGINT to every process of the line (a pipeline's other end too). */
  interrupt: () => void;
  kill: () => void;
}

export function start(line: string, cwd: string, env: NodeJS.ProcessEnv): Job {
  const child = spawn('bash', ['-c', `set -o pipefail; ${line}`], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let ended = false;
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<Ended>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      ended = true;
      assertNoSecret(stdout + stderr, `the example ${line}`);
      resolve({ code, signal, stdout, stderr });
    });
  });
  const signal = (sig: NodeJS.Signals) => {
    if (!ended) process.kill(-child.pid!, sig);
  };
  return {
    out: () => stdout,
    err: () => stderr,
    done,
    running: () => !ended,
    interrupt: () => signal('SIGINT'),
    kill: () => signal('SIGKILL'),
  };
}

/** Waits (up to `ms`) for `done`; fails naming `what`. */
export async function until(done: () => boolean, what: string, ms = 15_000) {
  for (const end = Date.now() + ms; !done() && Date.now() < end;) await sleep(100);
  expect(done(), what).toBe(true);
}

/**
 * A run ended by Ctrl-C: payctl's 130; in a pipeline, the shell may instead be stopped by the SIGINT
 * itself, when the command at the pipe's other end (jq) died of it.
 */
export const stoppedByCtrlC = (res: Ended, line: string) =>
  res.code === 130 || (line.includes('|') && res.signal === 'SIGINT');

/**
 * Examples that serve until stopped, run as a reader runs them: started, used once they say they are
 * ready, then stopped with Ctrl-C. One ending in `&` serves the document's later examples and is
 * stopped after them.
 */
export const SERVES: Array<{
  re: RegExp;
  ready: RegExp;
  use: (world: World, line: string, job: Job) => Promise<void>;
}> = [
  {
    re: /webhooks listen\b.*--forward-to/,
    ready: /Ctrl-C stops/,
    // A payment captured in the same sandbox reaches the handler, which verifies and applies it; the
    // listener shows that event among its deliveries (unless a pipe takes what it prints).
    use: async (world, line, job) => {
      const { paymentId, eventId } = await world.webhooks.trigger(line);
      const shown = () => job.out() + job.err();
      expect(
        await world.webhooks.applied(line, paymentId),
        `the handler applied ${paymentId}; the listener:\n${shown()}`,
      ).toBe(true);
      if (!line.includes('|')) await until(() => shown().includes(eventId), `the listener shows ${eventId}`);
    },
  },
];
