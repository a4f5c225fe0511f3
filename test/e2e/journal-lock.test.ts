import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess, seedCaptured, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

let dir: string;
let racer: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-lock-race-'));
  racer = join(dir, 'racer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/lock-racer.ts', import.meta.url))],
    outfile: racer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Proc {
  out: string;
  code: Promise<number | null>;
  kill(sig: NodeJS.Signals): void;
  line(text: string): Promise<void>;
}

function start(args: string[]): Proc {
  const child = spawn(process.execPath, [racer, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const proc: Proc = {
    out: '',
    code: new Promise((resolve) => child.on('close', (c) => resolve(c))),
    kill: (sig) => child.kill(sig),
    line: (text) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (proc.out.includes(text)) resolve();
        };
        child.stdout.on('data', check);
        child.on('close', () =>
          proc.out.includes(text) ? resolve() : reject(new Error(`exited without "${text}": ${proc.out}`)),
        );
        check();
      }),
  };
  child.stdout.on('data', (d: Buffer) => (proc.out += d.toString()));
  return proc;
}

/** Two real processes released at the same instant on one lock; returns how many got it, and what the loser said. */
async function doubleStart(trial: string, stale: boolean) {
  const lock = join(dir, `${trial}.ndjson.lock`);
  const marker = join(dir, `${trial}.marker`);
  const go = join(dir, `${trial}.go`);
  writeFileSync(marker, '');
  if (stale) {
    const holder = start([lock, 'hold', marker, go]);
    await holder.line('locked');
    holder.kill('SIGKILL');
    await holder.code;
    expect(existsSync(lock)).toBe(true);
  }
  const a = start([lock, 'race', marker, go]);
  const b = start([lock, 'race', marker, go]);
  await Promise.all([a.line('ready'), b.line('ready')]);
  writeFileSync(go, '');
  const codes = await Promise.all([a.code, b.code]);
  // Never two holders at once: every "in" is followed by its own "out" before the next "in".
  const events = readFileSync(marker, 'utf8').trim().split('\n').filter(Boolean);
  let inside: string | undefined;
  let overlap = false;
  for (const e of events) {
    const [what, pid] = e.split(' ');
    if (what === 'in') {
      if (inside) overlap = true;
      inside = pid;
    } else if (what === 'out') inside = undefined;
  }
  const loser = [a, b].find((p) => p.out.includes('busy'));
  return {
    winners: codes.filter((c) => c === 0).length,
    losers: codes.filter((c) => c === 2).length,
    overlap,
    loser: loser?.out ?? '',
    winnerPid: events.find((e) => e.startsWith('in '))?.split(' ')[1],
  };
}

async function trials(n: number, stale: boolean) {
  const results: Array<Awaited<ReturnType<typeof doubleStart>>> = [];
  const lanes = 3;
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < n) {
        const i = next++;
        results.push(await doubleStart(`${stale ? 'stale' : 'fresh'}-${i}`, stale));
      }
    }),
  );
  return results;
}

describe('journal lock: two processes can never both hold it', () => {
  it.each([
    ['on a free lock: exactly one proceeds, the other names it', false],
    ['over a stale lock left by kill -9: exactly one takes it over', true],
  ])('100 simultaneous double starts %s', { timeout: 240_000 }, async (_name, stale) => {
    const results = await trials(100, stale);
    expect(results).toHaveLength(100);
    expect(results.filter((r) => r.overlap)).toEqual([]);
    expect(results.filter((r) => r.winners !== 1 || r.losers !== 1)).toEqual([]);
    for (const r of results) expect(r.loser).toContain(`busy pid ${r.winnerPid}`);
  });
});

describe('journal lock in payctl itself', () => {
  let sb: SandboxProcess | undefined;
  afterAll(async () => sb?.stop());

  it('two bulk refunds started together on one journal: one exits 2 naming the other, every payment refunded once', async () => {
    sb = await startSandbox(['--latency', '5']);
    const ids = await seedCaptured(sb, 30);
    for (let round = 0; round < 3; round++) {
      const journal = join(sb.home, `together-${round}.ndjson`);
      const slice = ids.slice(round * 10, round * 10 + 10);
      const args = ['payments', 'refund', ...slice, '--amount', '1000', '--yes', '-o', 'ndjson'];
      args.push('--journal', journal, '--concurrency', '2');
      // Two processes: the lock names the other's pid.
      const [x, y] = await Promise.all([runProcess(args, { env: sb.env }), runProcess(args, { env: sb.env })]);
      const codes = [x.code, y.code].sort();
      // Either one waited out the other (then it resumed and found everything done), or it lost the race.
      const loser = [x, y].find((r) => r.code === 2);
      if (loser) expect(loser.stderr).toMatch(/is in use by another payctl run \(pid \d+, started /);
      expect(codes[0]).toBe(0);
      const { applied } = await sb.stats();
      for (const id of slice) expect(applied.refunds[id]).toEqual({ count: 1, amount: 1000 });
    }
  });
});
