import { TransportError } from '../../src/client/http';
import type { HttpRequest, HttpResponse } from '../../src/client/http';
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

const headerOf = (req: HttpRequest, name: string): string | undefined => {
  const headers = (req as { headers?: Record<string, string> }).headers ?? {};
  const k = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : headers[k];
};

/**
 * The network between one payctl process and the simulated service, with the shape of the
 * HttpClient ApiClient is built over: the real ApiClient and everything above it run unchanged.
 * Retries of what the real client retries (a refused connection, a 429, a failed GET) happen here.
 */
export class SimNetwork {
  readonly sends: SendRecord[];
  private readonly deadForever = new Promise<never>(() => undefined);
  /** Payments whose last read this process took in was mangled (a hostile answer). */
  private readonly mangledReads = new Set<string>();
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

  url(req: Pick<HttpRequest, 'path' | 'query' | 'fromOrigin'>): string {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) search.set(k, String(v));
    const qs = search.toString();
    return `${ORIGIN}${req.fromOrigin ? '' : '/v1'}${req.path}${qs ? `?${qs}` : ''}`;
  }

  async close(): Promise<void> {}

  private fate(method: string, path: string): Fate {
    if (!this.rng.chance(this.faults.rate)) return 'ok';
    const f = this.rng.weighted(this.faults.weights as Record<string, number>) as Fate;
    if (method === 'GET' && !['lost', 'proxy_5xx', 'proxy_html', 'hostile', 'proxy_429', 'refused'].includes(f))
      return 'ok';
    // A write's answer is mangled only for refunds (another payment's refund, another amount).
    if (method === 'POST' && f === 'hostile' && !path.endsWith('/refund')) return 'ok';
    return f;
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (this.proc.dead) return this.deadForever;
    const paymentId = decodeURIComponent(/^\/payments\/([^/]+)/.exec(req.path)?.[1] ?? '');
    const record: SendRecord = {
      id: this.sends.length + 1,
      proc: this.proc.id,
      command: this.proc.command,
      method: req.method,
      path: req.path,
      paymentId,
      query: req.query,
      body: req.body as Record<string, unknown> | undefined,
      key: headerOf(req, 'X-Refund-Idempotency'),
      inTransit: 0,
      arrived: 0,
    };
    this.sends.push(record);
    if (record.method === 'POST') {
      if (this.mangledReads.has(paymentId)) record.afterHostileRead = true;
      this.beforePost?.(record);
    }
    for (let attempt = 1; ; attempt++) {
      const fate = this.fate(req.method, req.path);
      const retryable =
        fate === 'refused' ||
        fate === 'proxy_429' ||
        (req.method === 'GET' && (fate === 'lost' || fate === 'proxy_5xx'));
      if (retryable && attempt <= MAX_RETRIES) {
        await this.world.sleep(this.rng.int(0, 250 * 2 ** attempt));
        if (this.proc.dead) return this.deadForever;
        continue;
      }
      if (fate !== 'ok' || record.method === 'POST')
        this.log(
          `    send ${record.id} (process ${this.proc.id}): ${record.method} ${record.path}${record.key ? ` key ${record.key}` : ''}${record.body ? ` ${JSON.stringify(record.body)}` : ''}: ${fate}`,
        );
      return this.attempt(record, fate, attempt);
    }
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

  private attempt(record: SendRecord, fate: Fate, attempts: number): Promise<HttpResponse> {
    const { world, rng } = this;
    return new Promise<HttpResponse>((resolve, reject) => {
      let settled = false;
      const answer = (fn: () => void) => {
        if (settled || this.proc.dead) return;
        settled = true;
        fn();
      };
      // A read of one payment (not of its refunds): whether the answer payctl takes in was mangled.
      const paymentRead = record.method === 'GET' && /^\/payments\/[^/]+$/.test(record.path);
      const reply = (status: number, text: string, mangled = false) =>
        answer(() => {
          if (paymentRead && status === 200) {
            if (mangled) this.mangledReads.add(record.paymentId);
            else this.mangledReads.delete(record.paymentId);
          }
          resolve({ status, headers: { 'content-type': 'application/json' }, text, attempts });
        });
      const fail = (failure: 'not_sent' | 'timeout' | 'reset', message: string) =>
        answer(() => reject(new TransportError(failure, attempts, Object.assign(new Error(message), { code: 'SIM' }))));
      const timeout = () => world.at(TIMEOUT_MS, () => fail('timeout', 'no complete answer within 30s (--timeout)'));
      const latency = () => rng.int(1, 40);
      const back = (a: Answer) => world.at(latency(), () => reply(a.status, JSON.stringify(a.body)));
      const proxy = (status: number, text: string) => {
        if (rng.chance(0.5)) this.deliver(record, latency(), () => undefined);
        world.at(latency(), () => reply(status, text));
      };
      switch (fate) {
        case 'refused':
          return world.at(latency(), () => fail('not_sent', 'connect ECONNREFUSED'));
        case 'proxy_429':
          return world.at(latency(), () => reply(429, '<html><body>Too Many Requests</body></html>'));
        case 'lost':
          return timeout();
        case 'answer_lost':
          this.deliver(record, latency(), () => undefined);
          if (rng.chance(0.5)) return timeout();
          return world.at(rng.int(50, 2_000), () => fail('reset', 'socket hang up'));
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
