import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect } from 'vitest';
import { ApiClient } from '../../../src/client/client';
import type { HttpClient, HttpRequest, HttpResponse } from '../../../src/client/http';
import type { Context, IO, Settings } from '../../../src/commands/context';
import { ProfileStore } from '../../../src/config/profiles';
import { matchPath } from '../../../src/contract/paths';
import { DeclinedError, UsageError } from '../../../src/contract/errors';

/** The answer of one fake route: a status (200 unless said) and a JSON body. */
export interface Answer {
  status?: number;
  body: unknown;
}
/** Keyed `METHOD /path/:param` (paths below the base URL; admin paths from the origin, e.g. `/_sandbox/seed`). */
export type Routes = Record<string, Answer | ((req: HttpRequest, params: Record<string, string>) => Answer)>;

export interface FakeOptions {
  routes?: Routes;
  settings?: Partial<Settings>;
  /** What stdin holds (for --input -, --key-secret-stdin). */
  stdin?: string;
  /** The person's answer to a confirmation (default: yes). */
  confirm?: boolean;
  nowMs?: number;
}

/**
 * Settings as the CLI resolves them for an unattended run (`--yes`, JSON, no colour, India time),
 * every file under `home`; `overrides` on top. The simulation's processes start from these too.
 */
export function testSettings(home: string, overrides: Partial<Settings> = {}): Settings {
  return {
    format: 'json',
    formatChosen: false,
    tz: 'Asia/Kolkata',
    yes: true,
    dryRun: false,
    debug: false,
    timeoutMs: 30_000,
    sandbox: false,
    keyEnv: {},
    notices: { enabled: true },
    paths: { config: home, data: home, state: home },
    childEnv: { PAYCTL_HOME: home },
    table: { wide: false, color: false, stderrColor: false },
    ...overrides,
  };
}

const text = (s: PassThrough) => {
  let out = '';
  s.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return () => out;
};

/**
 * A handler's context, in process: requests go through the real ApiClient (validation, error
 * classification) to a table of canned answers; an unknown route answers the service's 404 error object.
 */
export function fakeContext(opts: FakeOptions = {}) {
  const sent: HttpRequest[] = [];
  const questions: string[] = [];
  const home = mkdtempSync(join(tmpdir(), 'payctl-unit-'));
  const http = {
    url: ({ path, query, fromOrigin }: Pick<HttpRequest, 'path' | 'query' | 'fromOrigin'>) => {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) qs.set(k, String(v));
      return `http://127.0.0.1:9${fromOrigin ? '' : '/v1'}${path}${qs.size ? `?${qs}` : ''}`;
    },
    async send(req: HttpRequest): Promise<HttpResponse> {
      sent.push(req);
      for (const [key, route] of Object.entries(opts.routes ?? {})) {
        const [method, pattern] = key.split(' ') as [string, string];
        const params = method === req.method ? matchPath(pattern, req.path) : null;
        if (!params) continue;
        const answer = typeof route === 'function' ? route(req, params) : route;
        return { status: answer.status ?? 200, headers: {}, text: JSON.stringify(answer.body), attempts: 1 };
      }
      const body = {
        error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' },
      };
      return { status: 404, headers: {}, text: JSON.stringify(body), attempts: 1 };
    },
    async close() {},
  };
  const api = new ApiClient(http as unknown as HttpClient);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(opts.stdin ?? '');
  const io: IO = { stdout, stderr, stdin, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const settings = testSettings(home, opts.settings);
  let store: ProfileStore | undefined;
  const ctx: Context = {
    settings,
    io,
    paths: { config: home, data: home, state: home },
    signal: new AbortController().signal,
    nowMs: () => opts.nowMs ?? Date.parse('2026-11-23T10:00:00Z'),
    api: async () => api,
    credentials: async () => ({
      keyId: 'rzp_test_unit',
      keySecret: 'unit-secret',
      baseUrl: 'http://127.0.0.1:9/v1',
      live: false,
      source: 'env',
    }),
    profiles: async () => (store ??= new ProfileStore(home)),
    notice: (message) => stderr.write(`${message}\n`),
    confirm: async (question) => {
      questions.push(typeof question === 'string' ? question : await question());
      if (opts.confirm === false) throw new DeclinedError();
    },
    readStdin: async () => opts.stdin ?? '',
  };
  return { ctx, sent, questions, home, stdout: text(stdout), stderr: text(stderr) };
}

type Handler<O> = (opts: O, ctx: Context) => Promise<unknown>;

/** `handler(opts)` is refused as a usage error whose message matches `message`, and nothing is sent. */
export async function expectUsageError<O>(handler: Handler<O>, opts: O, message: RegExp) {
  const f = fakeContext();
  const err = await handler(opts, f.ctx).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as Error).message).toMatch(message);
  expect(f.sent).toHaveLength(0);
}

/** Under --dry-run, `handler(opts)` answers the one request it would send (matching `request`), and sends nothing. */
export async function expectDryRun<O>(handler: Handler<O>, opts: O, request: Record<string, unknown>) {
  const f = fakeContext({ settings: { dryRun: true } });
  expect(await handler(opts, f.ctx)).toMatchObject({ type: 'dry-run', requests: [request] });
  expect(f.sent).toHaveLength(0);
}
