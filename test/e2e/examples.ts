import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../tools';
import { SERVES, start, stoppedByCtrlC, until } from './examples-jobs';
import type { Job } from './examples-jobs';
import { EXAMPLES_TZ, exampleWorld } from './examples-world';
import { BIN, clockEnv, run, sandboxForFile } from './harness';

/**
 * Every line of every ```sh block of the documents given runs against a sandbox, so an example cannot
 * rot. Blocks are read generically: a new example, or a new document, is picked up and must run.
 * What cannot run here is listed, with why, as a skipped test; a line that needs a tool the machine
 * may lack (curl, jq) is skipped and listed without it, like every test that needs a tool.
 */

export const ROOT = new URL('../../', import.meta.url).pathname;

/** The Markdown files in `dir` (from the repository's root), sorted. */
export const markdownFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(dir, name));

export const SKIP: Array<[RegExp, string]> = [
  [/^npm /, 'installs, builds or tests payctl itself: the suite runs on that build'],
  [
    /^node --env-file=\.env server\.js\b/,
    'starts your own handler (server.js, on Express): wherever an example names localhost:3000 the examples run ' +
      'one that verifies the same way, test/fixtures/webhook-handlers/correct.mjs, on a free port',
  ],
  [/^node /, 'runs a script of the repository: the suite runs on its build'],
  [
    /^pbpaste\b/,
    "reads the clipboard (macOS) holding what a person copied: the examples write body.json, an event in the service's bytes",
  ],
  [
    /^cp build\/payctl-/,
    'copies the single executable `npm run build:exe` makes; exe.test.ts runs it on a PATH with no node',
  ],
  [
    /^payctl sandbox start\b/,
    'serves until stopped, on a fixed port; every e2e test starts the same server on a free port (harness.ts)',
  ],
  [
    /^payctl completion zsh > "\$\{fpath\[1\]\}/,
    "writes into this machine's zsh fpath; completion.test.ts installs it the same way into a test fpath",
  ],
  [
    /^payctl (-p \S+ )?mcp(?! log)\b/,
    'serves an assistant over stdio until it disconnects; mcp.test.ts drives it with the SDK client',
  ],
  [
    /^payctl payments (refund|capture)$/,
    'the guided flow needs a person at a terminal: guided.test.ts drives it on a pseudo-terminal',
  ],
];

/** Tools an example line runs besides payctl and the shell's own. */
const TOOLS = ['curl', 'jq'];

/** Example lines: shell comments and `\` continuations handled, trailing `# notes` dropped. */
export function examples(markdown: string): string[] {
  return exampleLines(markdown).map((e) => e.line);
}

/**
 * Each of `commands` is shown in an example of `markdown`: an example line starts with it (`at: 'start'`)
 * or holds it anywhere.
 */
export function expectShown(markdown: string, commands: string[], at: 'start' | 'anywhere' = 'anywhere') {
  const lines = examples(markdown);
  for (const c of commands)
    expect(
      lines.some((l) => (at === 'start' ? l.startsWith(c) : l.includes(c))),
      c,
    ).toBe(true);
}

/** Each example line with its trailing `# note`, if any. */
function exampleLines(markdown: string): Array<{ line: string; note: string }> {
  const out: Array<{ line: string; note: string }> = [];
  for (const block of markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (line && !line.startsWith('#')) out.push({ line, note: raw.slice(raw.indexOf(line) + line.length) });
    }
  }
  return out;
}

/** The exit status a note declares (`# exits 1`), else 0. */
const expectedExit = (note: string) => Number(/#.*\bexits (\d+)\b/.exec(note)?.[1] ?? 0);

const skipReason = ({ line, note }: { line: string; note: string }) =>
  SKIP.find(([re]) => re.test(line))?.[1] ??
  (/\(real service\)/.test(note) ? 'marked (real service): the sandbox does not serve it' : undefined);

/** Each document's examples, a test each, in order, against one sandbox for the test file. */
export function runExamples(documents: string[]) {
  const sb = sandboxForFile();
  let work = '';
  let env: NodeJS.ProcessEnv = {};
  let world: ReturnType<typeof exampleWorld>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'payctl-examples-'));
    mkdirSync(join(work, 'bin'));
    mkdirSync(join(work, 'home'));
    writeFileSync(join(work, 'bin', 'payctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, {
      mode: 0o755,
    });
    env = {
      ...clockEnv(),
      PATH: `${join(work, 'bin')}:${process.env.PATH}`,
      HOME: join(work, 'home'),
      PAYCTL_HOME: sb.home,
      PAYCTL_TZ: EXAMPLES_TZ,
      // What the profile examples read the secret from (`printf %s "$KEY_SECRET" | …`, or the
      // environment when there is no terminal to ask on).
      KEY_SECRET: sb.keySecret,
      SECRET: sb.keySecret,
      KEY_ID: sb.keyId,
      BASE_URL: sb.baseUrl,
      PAYCTL_KEY_SECRET: sb.keySecret,
      TERM: 'dumb',
    };
    world = exampleWorld(sb, work);
    // As `payctl sandbox start` would leave things: a default "sandbox" profile, and a live one.
    for (const [name, flag] of [
      ['sandbox', '--default'],
      ['prod', '--live'],
    ] as const) {
      const add = await run(
        ['profile', 'add', name, '--key-id', sb.keyId, '--base-url', sb.baseUrl, flag, '--key-secret-stdin'],
        { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret },
      );
      expect(add.code, add.stderr).toBe(0);
      world.profiles.add(name);
    }
  });
  afterAll(() => {
    world?.webhooks.stop();
    rmSync(work, { recursive: true, force: true });
  });
  /** Examples still running: those started with `&`, until the document's end. */
  const jobs = new Map<string, Job>();

  const shell = (line: string) => start(line, work, env).done;

  for (const document of documents) {
    const lines = exampleLines(readFileSync(join(ROOT, document), 'utf8'));
    if (!lines.length) continue; // a page of a command group: its commands' pages hold the examples
    describe(document, () => {
      for (const example of lines) {
        const { line } = example;
        const reason = skipReason(example);
        if (reason) {
          it.skip(`${line}  [skipped: ${reason}]`, () => undefined);
          continue;
        }
        it(line, async () => {
          needs(...TOOLS.filter((tool) => new RegExp(`(^|\\| *|')${tool}\\b`).test(line)));
          // An example writing into a directory of the home (`> ~/.config/fish/completions/…`) has it.
          for (const m of line.matchAll(/>\s*~\/(\S+)/g))
            mkdirSync(dirname(join(env.HOME!, m[1]!)), { recursive: true });
          await world.writeInputs(line);
          await world.storeProfiles(line);
          await world.payers(line);
          const command = await world.substitute(line);
          const serving = SERVES.find(({ re }) => re.test(line));
          if (serving || / &$/.test(command)) {
            const job = start(command.replace(/\s*&$/, ''), work, env);
            jobs.set(line, job);
            if (serving) {
              await until(() => serving.ready.test(job.err()) || !job.running(), `${command} says it is ready`);
              expect(job.running(), `${command}\n${job.err()}`).toBe(true);
              await serving.use(world, line, job);
            }
            if (/ &$/.test(line)) return; // serves the examples after it, stopped after them
            job.interrupt();
            const res = await job.done;
            expect(
              stoppedByCtrlC(res, command),
              `${command}: Ctrl-C, then ${res.code ?? res.signal}\n${res.stderr}`,
            ).toBe(true);
            expect(res.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
            return;
          }
          let res = await shell(command);
          // No terminal here to confirm on: an example written for a person at one is run with --yes.
          if (res.code === 2 && /pass --yes/.test(res.stderr)) res = await shell(`${command} --yes`);
          expect(res.code, `${command}\n${res.stderr}`).toBe(expectedExit(example.note));
          expect(res.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
        });
      }
      // What an example started with `&` served the document's examples after it; Ctrl-C stops it.
      for (const { line } of lines.filter((e) => / &$/.test(e.line) && !skipReason(e)))
        it(`${line}  [then Ctrl-C]`, async () => {
          const job = jobs.get(line);
          expect(job, `${line} was started`).toBeDefined();
          job!.interrupt();
          const res = await job!.done;
          expect(stoppedByCtrlC(res, line), `${line}: Ctrl-C, then ${res.code ?? res.signal}\n${res.stderr}`).toBe(
            true,
          );
          expect(res.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
        });
      afterAll(() => {
        for (const job of jobs.values()) job.kill();
        jobs.clear();
      });
    });
  }
}
