import { kindOfPrefix } from '../contract/kinds';
import { stripControl } from '../output/sanitize';

/** What an id's prefix names, in the words of the commands (`pay` a payment, `fa` a fund account). */
const kindOf = (id: string) => kindOfPrefix(id.split('_')[0]!)?.replace(/_/g, ' ');

/** The action a path's last segment names, as a verb on the record before it. */
const ACTIONS: Record<string, string> = {
  capture: 'capture',
  refund: 'refund',
  cancel: 'cancel',
  refunds: 'list the refunds of',
  payments: 'list the payments of',
  transfers: 'transfer from',
  payouts: 'pay out from the wallet of',
  balance: 'read the wallet balance of',
  statement: 'read the wallet statement of',
};

const singular = (segment: string) => segment.replace(/_/g, ' ').replace(/s$/, '');

interface Operation {
  /** "capture payment pay_…", "create an order". */
  phrase: string;
  /** The record the path names, when it names one. */
  record?: { kind: string; id: string };
  /** True when the request only read that record (GET /payments/:id). */
  readsRecord: boolean;
}

/** The operation a request was, in the user's terms, from its method and URL ("POST http://…/v1/payments/pay_1/capture"). */
export function operationOf(where: string): Operation | undefined {
  const [method, url] = where.split(' ');
  let segments: string[];
  try {
    segments = new URL(url ?? '').pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const at = segments.findLastIndex((s) => /^[a-z]+_[A-Za-z0-9]+$/.test(s) && kindOf(s) !== undefined);
  if (at < 0) {
    const last = segments.at(-1);
    if (!last) return undefined;
    const phrase = method === 'POST' ? `create a${/^[aeiou]/.test(last) ? 'n' : ''} ${singular(last)}` : `list ${last}`;
    return { phrase: phrase.replace(/_/g, ' '), readsRecord: false };
  }
  const id = segments[at]!;
  const kind = kindOf(id)!;
  const action = segments[at + 1];
  const verb = action === undefined ? (method === 'GET' ? 'read' : 'change') : (ACTIONS[action] ?? action);
  return {
    phrase: `${verb} ${kind} ${id}`,
    record: { kind, id },
    readsRecord: action === undefined && method === 'GET',
  };
}

interface Refusal {
  status: number;
  where?: string;
  /** Set when the service serves no such method and path ("GET /no/such/thing"). */
  endpoint?: string;
  service: { code?: string | null; description?: string | null; field?: string | null; reason?: string | null };
}

const NOT_FOUND = /does not exist|not found/i;
/** Commands that only read: a refused read is their whole story. */
const READS = ['get', 'list', 'api', 'balance', 'statement'];

/**
 * A service refusal as one line in the user's terms: the operation and the id first (`no payment
 * pay_… on this account`, `cannot capture payment pay_…`), then the service's own words and code.
 */
export function refusalLine(err: Refusal, verb?: string): string {
  const { service } = err;
  const said = stripControl(service.description || `HTTP ${err.status}`);
  const known = (v: string | null | undefined): v is string => Boolean(v) && v !== 'NA';
  const extra = [
    known(service.code) ? service.code : '',
    known(service.field) ? `field ${service.field}` : '',
    known(service.reason) ? `reason ${service.reason}` : '',
  ]
    .filter(Boolean)
    .map((x) => stripControl(x));
  const theirs = `the service says: ${said}${extra.length ? ` (${extra.join(', ')})` : ''}`;
  if (err.endpoint) return `the service has no endpoint ${stripControl(err.endpoint)}; ${theirs}`;
  const op = err.where ? operationOf(err.where) : undefined;
  if (!op) return theirs.replace(/^the service says: /, 'the service refused the request: ');
  const aboutPathId = !service.field || service.field === 'id';
  if (op.record && aboutPathId && NOT_FOUND.test(said)) {
    const none = `no ${op.record.kind} ${op.record.id} on this account`;
    // A command that reads the record before acting on it (a refund) is named by what it was doing.
    const phrase =
      op.readsRecord && verb && !READS.includes(verb) ? `${verb} ${op.record.kind} ${op.record.id}` : op.phrase;
    return op.readsRecord && phrase === op.phrase ? `${none}; ${theirs}` : `cannot ${phrase}: ${none}; ${theirs}`;
  }
  return `cannot ${op.phrase}: ${theirs}`;
}
