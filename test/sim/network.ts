import { Readable } from 'node:stream';
import { HttpClient } from '../../src/client/http';
import type { HttpRequest } from '../../src/client/http';
import { DEFAULT_RETRY } from '../../src/client/retry';
import type { Connection } from '../../src/client/pool';
import type { Rng } from './rng';
import type { Answer, SimService } from './service';
import type { World } from './world';

/** What happens to one attempt of a request on its way to the service and back. */
export type Fate =
  | 'ok'
  | 'refused' // connection refused: provably never sent (the client retries it)
  | 'lost' // lost before arrival; the client times out
  | 'answer_lost' // applied, the answer lost (timeout or reset)
  | 'delayed' // lands after the client gave up and read back
  | 'duplicate' // a proxy delivers it twice
  | 'proxy_429' // a proxy's 429: never reached the service
  | 'proxy_5xx' // a proxy's 502, before or after forwarding it
  | 'proxy_html' // a proxy's HTML 403, before or after forwarding it
  | 'hostile'; // a read's or a refund's answer that a proxy (or a broken service) mangled

export interface NetworkFaults {
  /** Chance that an attempt meets a fault at all. */
  rate: number;
  /** Weights of the faults that may happen. */
  weights: Partial<Record<Exclude<Fate, 'ok'>, number>>;
}

/** One request payctl sent, as the simulation saw it: where it is now, for the invariants. */
export interface SendRecord {
  id: number;
  proc: number;
  /** The command of the process that sent it. */
  command: string;
  method: HttpRequest['method'];
  path: string;
  paymentId: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  key?: string;
  /** Deliveries to the service still on their way. */
  inTransit: number;
  arrived: number;
  /** A write sent while the last read of its payment this process took in was a mangled one. */
  afterHostileRead?: boolean;
}

export interface Process {
  id: number;
  dead: boolean;
  finished: boolean;
  /** The command line it runs, as the trace shows it. */
  command: string;
}

const TIMEOUT_MS = 30_000;
const MAX_RETRIES = 4;
const ORIGIN = 'http://sim.test';

/** What the client hands the connection for one attempt (undici's request options, as payctl uses them). */
interface AttemptOptions {
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** One attempt's answer, as the client's connection gives it. */
interface AttemptAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Readable;
}

const headerOf = (headers: Record<string, string>, name: string): string | undefined => {
  const k = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : headers[k];
};

/**
 * The network between one payctl process and the simulated service, as the connection the real
 * HttpClient sends its attempts over: the real HTTP layer (retries, the 429 gate, deadlines, the
 * classification of failures), ApiClient and everything above run unchanged. Each attempt meets its
 * own fate here; which to retry is the real client's decision.
 */
export class SimNetwork {
  readonly sends: SendRecord[];
  private readonly deadForever = new Promise<never>(() => undefined);
  /** Payments whose last read this process took in was mangled (a hostile answer). */
  private readonly mangledReads = new Set<string>();
  /** The logical request of each attempt: the client sends every attempt of one request with one headers object. */
  private readonly records = new WeakMap<object, SendRecord>();
  /** Told of every write (POST) as it leaves the process, before its first attempt. */
  beforePost: ((record: SendRecord) => void) | undefined;

  constructor(
    private readonly world: World,
    private readonly service: SimService,
    private readonly rng: Rng,
    private readonly faults: NetworkFaults,
    private readonly proc: Process,
    sends: SendRecord[],
    /** A mangled read of payment `id` (hostile answers). */
    private readonly mangle: (body: Record<string, unknown>) => Record<string, unknown>,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.sends = sends;
  }

  /** The real HTTP layer over this network, on the simulation's clock and seeded jitter. */
  client(): HttpClient {
    return new HttpClient({
      baseUrl: `${ORIGIN}/v1`,
      keyId: 'rzp_test_sim0000000001',
      keySecret: 'sim',
      timeoutMs: TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY, maxRetries: MAX_RETRIES },
      pool: this as unknown as Connection, // the options and answer payctl uses of undici's types
      sleep: this.world.sleep,
      now: () => this.world.now,
      random: () => this.rng.int(0, 1_000_000) / 1_000_000,
      deadline: (ms, fire) => {
        let live = true;
        this.world.at(ms, () => live && fire());
        return () => (live = false);
      },
    });
  }

  async destroy(): Promise<void> {}

  private fate(method: string, path: string): Fate {
    if (!this.rng.chance(this.faults.rate)) return 'ok';
    const f = this.rng.weighted(this.faults.weights as Record<string, number>) as Fate;
    if (method === 'GET' && !['lost', 'proxy_5xx', 'proxy_html', 'hostile', 'proxy_429', 'refused'].includes(f))
      return 'ok';
    // A write's answer is mangled only for refunds (another payment's refund, another amount).
    if (method === 'POST' && f === 'hostile' && !path.endsWith('/refund')) return 'ok';
    return f;
  }

  /** The request one attempt belongs to (made at its first attempt). */
  private recordOf(opts: AttemptOptions): SendRecord {
    const known = this.records.get(opts.headers);
    if (known) return known;
    const url = new URL(`${ORIGIN}${opts.path}`);
    const path = url.pathname.replace(/^\/v1/, '');
    const paymentId = decodeURIComponent(/^\/payments\/([^/]+)/.exec(path)?.[1] ?? '');
    const query = url.search ? Object.fromEntries(url.searchParams) : undefined;
    const record: SendRecord = {
      id: this.sends.length + 1,
      proc: this.proc.id,
      command: this.proc.command,
      method: opts.method,
      path,
      paymentId,
      query,
      body: opts.body === undefined ? undefined : (JSON.parse(opts.body) as Record<string, unknown>),
      key: headerOf(opts.headers, 'X-Refund-Idempotency'),
      inTransit: 0,
      arrived: 0,
    };
    this.records.set(opts.headers, record);
    this.sends.push(record);
    if (record.method === 'POST') {
      if (this.mangledReads.has(paymentId)) record.afterHostileRead = true;
      this.beforePost?.(record);
    }
    return record;
  }

  /** One attempt, as undici's request answers it (or fails it, with the code undici would give). */
  request(opts: AttemptOptions): Promise<AttemptAnswer> {
    if (this.proc.dead) return this.deadForever;
    const record = this.recordOf(opts);
    const fate = this.fate(record.method, record.path);
    if (fate !== 'ok' || record.method === 'POST')
      this.log(
        `    send ${record.id} (process ${this.proc.id}): ${record.method} ${record.path}${record.key ? ` key ${record.key}` : ''}${record.body ? ` ${JSON.stringify(record.body)}` : ''}: ${fate}`,
      );
    return this.attempt(record, fate, opts.signal);
  }

  private deliver(record: SendRecord, delayMs: number, respond: (a: Answer) => void) {
    record.inTransit++;
    this.world.at(delayMs, () => {
      record.inTransit--;
      record.arrived++;
      if (record.method === 'POST') this.log(`    send ${record.id} lands at the service`);
      this.service.arrive(
        {
          method: record.method,
          path: record.path,
          query: record.query,
          body: record.body,
          key: record.key,
          actor: 'payctl',
          sendId: record.id,
        },
        respond,
      );
    });
  }

  private attempt(record: SendRecord, fate: Fate, signal: AbortSignal | undefined): Promise<AttemptAnswer> {
    const { world, rng } = this;
    return new Promise<AttemptAnswer>((resolve, reject) => {
      let settled = false;
      const answer = (fn: () => void) => {
        if (settled || this.proc.dead) return;
        settled = true;
        fn();
      };
      // The deadline (the client's, on the simulated clock) ends an attempt nothing answers.
      signal?.addEventListener('abort', () => answer(() => reject(signal.reason)), { once: true });
      // A read of one payment (not of its refunds): whether the answer payctl takes in was mangled.
      const paymentRead = record.method === 'GET' && /^\/payments\/[^/]+$/.test(record.path);
      const reply = (status: number, text: string, mangled = false) =>
        answer(() => {
          if (paymentRead && status === 200) {
            if (mangled) this.mangledReads.add(record.paymentId);
            else this.mangledReads.delete(record.paymentId);
          }
          resolve({
            statusCode: status,
            headers: { 'content-type': 'application/json' },
            body: Readable.from([Buffer.from(text)]),
          });
        });
      const fail = (code: string, message: string) => answer(() => reject(Object.assign(new Error(message), { code })));
      // Nothing answers: the client's deadline ends the attempt.
      const timeout = () => undefined;
      const latency = () => rng.int(1, 40);
      const back = (a: Answer) => world.at(latency(), () => reply(a.status, JSON.stringify(a.body)));
      const proxy = (status: number, text: string) => {
        if (rng.chance(0.5)) this.deliver(record, latency(), () => undefined);
        world.at(latency(), () => reply(status, text));
      };
      switch (fate) {
        case 'refused':
          return world.at(latency(), () => fail('ECONNREFUSED', 'connect ECONNREFUSED'));
        case 'proxy_429':
          return world.at(latency(), () => reply(429, '<html><body>Too Many Requests</body></html>'));
        case 'lost':
          return timeout();
        case 'answer_lost':
          this.deliver(record, latency(), () => undefined);
          if (rng.chance(0.5)) return timeout();
          return world.at(rng.int(50, 2_000), () => fail('UND_ERR_SOCKET', 'other side closed'));
        case 'delayed':
          this.deliver(record, TIMEOUT_MS + rng.int(0, 8_000), () => undefined);
          return timeout();
        case 'duplicate':
          this.deliver(record, latency(), back);
          this.deliver(record, rng.int(1, 5_000), () => undefined);
          return timeout();
        case 'proxy_5xx':
          return proxy(502, '<html><head><title>502 Bad Gateway</title></head></html>');
        case 'proxy_html':
          return proxy(403, '<!DOCTYPE html><html><body>Forbidden by proxy</body></html>');
        case 'hostile':
          timeout();
          return this.deliver(record, latency(), (a) =>
            world.at(latency(), () => {
              const body = a.status === 200 ? this.mangle(a.body as Record<string, unknown>) : a.body;
              reply(a.status, JSON.stringify(body), body !== a.body);
            }),
          );
        default:
          timeout();
          return this.deliver(record, latency(), back);
      }
    });
  }
}
