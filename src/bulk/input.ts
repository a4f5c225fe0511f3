import { LIMITS } from '../contract/limits';
import { refundNotesProblem } from '../contract/rules';
import { parseAmount } from '../contract/values/amount';
import { parseCurrency } from '../contract/values/currency';
import { parseId } from '../contract/values/id';
import { parseNotes } from '../contract/values/notes';
import type { Result } from '../contract/values/result';
import { StringDecoder } from 'node:string_decoder';
import { csvEvents } from './csv-input';
import { jsonEvents, ndjsonEvents } from './json-input';

export type BulkOp = 'capture' | 'refund';

/** One payment to capture or refund, with where it came from for error messages. */
export interface BulkItem {
  line: number;
  id: string;
  amount?: number;
  currency?: string;
  receipt?: string;
  notes?: Record<string, string>;
}

export interface InputProblem {
  line: number;
  message: string;
}

interface ParsedInput {
  format: 'ids' | 'csv' | 'ndjson' | 'json';
  items: BulkItem[];
  /** The first problems, in line order. */
  problems: InputProblem[];
  problemCount: number;
}

export type Fields = {
  payment_id?: unknown;
  amount?: unknown;
  currency?: unknown;
  receipt?: unknown;
  notes?: Record<string, unknown>;
};

/** Checks one row's fields; the first problem wins, so each bad row gives one clear line. */
function itemFrom(line: number, fields: Fields, op: BulkOp): Result<BulkItem> {
  const fail = (error: string): Result<BulkItem> => ({ ok: false, error });
  if (fields.payment_id === undefined || fields.payment_id === '') return fail('payment_id is missing');
  const id = parseId(String(fields.payment_id), 'payment');
  if (!id.ok) return fail(id.error);
  const item: BulkItem = { line, id: id.value };
  if (fields.currency !== undefined && fields.currency !== '') {
    const currency = parseCurrency(String(fields.currency));
    if (!currency.ok) return fail(currency.error);
    item.currency = currency.value;
  }
  if (fields.amount !== undefined && fields.amount !== '') {
    const amount = parseAmount(String(fields.amount), item.currency);
    if (!amount.ok) return fail(amount.error);
    item.amount = amount.value;
  }
  if (op === 'capture' && (item.amount === undefined) !== (item.currency === undefined)) {
    return fail('amount and currency go together for a capture (leave both out to capture the authorized amount)');
  }
  if (fields.receipt !== undefined && fields.receipt !== '') {
    if (op === 'capture') return fail('receipt applies to refunds only');
    const receipt = String(fields.receipt);
    if ([...receipt].length > LIMITS.receiptChars)
      return fail(`receipt is longer than ${LIMITS.receiptChars} characters`);
    item.receipt = receipt;
  }
  const notes = Object.entries(fields.notes ?? {}).filter(([, v]) => v !== '');
  if (notes.length) {
    if (op === 'capture') return fail('notes apply to refunds only');
    if (notes.some(([, v]) => typeof v === 'object' && v !== null)) return fail('note values must be text');
    const parsed = parseNotes(notes.map(([k, v]) => `${k}=${String(v)}`));
    if (!parsed.ok) return fail(parsed.error);
    item.notes = parsed.value;
  }
  const notesProblem = op === 'refund' ? refundNotesProblem(item.notes) : undefined;
  if (notesProblem) return fail(notesProblem);
  return { ok: true, value: item };
}

/** Problems kept for the report; beyond this only their number (a million bad rows stay small). */
const KEEP_PROBLEMS = 1000;

export type InputEvent = { item: BulkItem; problem?: undefined } | { problem: InputProblem; item?: undefined };

/** A 32-bit FNV-1a hash of a string, seeded: two seeds give the 64 bits SeenIds keys on. */
function fnv(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h || 1;
}

/**
 * Which payments were already given, and on which line: 12 bytes a payment (a 64-bit hash and the
 * line) instead of keeping every id, so a million rows stay small. A hash collision could only make
 * a row look repeated and be refused, never let a payment through twice.
 */
class SeenIds {
  private size = 0;
  private slots = new Uint32Array(3 << 16);

  /** The line the id was first seen on, or undefined (and it is remembered with `line`). */
  firstOrAdd(id: string, line: number): number | undefined {
    if ((this.size + 1) * 2 > this.slots.length / 3) this.grow();
    const a = fnv(id, 2166136261);
    const b = fnv(id, 0x9747b28c);
    const cap = this.slots.length / 3;
    for (let i = a % cap; ; i = (i + 1) % cap) {
      const at = i * 3;
      if (this.slots[at] === 0) {
        this.slots.set([a, b, line], at);
        this.size++;
        return undefined;
      }
      if (this.slots[at] === a && this.slots[at + 1] === b) return this.slots[at + 2];
    }
  }

  private grow() {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    const cap = this.slots.length / 3;
    for (let at = 0; at < old.length; at += 3) {
      if (old[at] === 0) continue;
      let i = old[at]! % cap;
      while (this.slots[i * 3] !== 0) i = (i + 1) % cap;
      this.slots.set(old.subarray(at, at + 3), i * 3);
    }
  }
}

/** Checks rows as they are read; each payment once. */
export class Checker {
  private readonly seen = new SeenIds();

  constructor(readonly op: BulkOp) {}

  check(line: number, fields: Fields): InputEvent {
    const r = itemFrom(line, fields, this.op);
    if (!r.ok) return { problem: { line, message: r.error } };
    const first = this.seen.firstOrAdd(r.value.id, line);
    if (first !== undefined)
      return {
        problem: { line, message: `${r.value.id} is already on line ${first}: one run ${this.op}s each payment once` },
      };
    return { item: r.value };
  }
}

function idLine(c: Checker, raw: string, line: number): InputEvent | undefined {
  const text = raw.trim();
  if (!text || text.startsWith('#')) return undefined;
  return c.check(line, { payment_id: text });
}

/** Text chunks split into lines (LF or CRLF), numbered from 1. */
async function* lines(text: AsyncIterable<string>): AsyncGenerator<[string, number]> {
  let rest = '';
  let n = 0;
  for await (const chunk of text) {
    rest += chunk;
    let from = 0;
    let at: number;
    while ((at = rest.indexOf('\n', from)) >= 0) {
      yield [rest.slice(from, at).replace(/\r$/, ''), ++n];
      from = at + 1;
    }
    rest = rest.slice(from);
  }
  if (rest) yield [rest.replace(/\r$/, ''), n + 1];
}

/**
 * The --input of a bulk run, read as a stream, in whichever shape it comes: NDJSON when the first
 * line is an object, a JSON document when it opens one (`-o json`), CSV when it is a header naming
 * payment_id (or id: payctl's own export), otherwise one id per line (blank lines and `#` comments
 * skipped). payctl's own payment records are rows (json-input.ts). Every bad row is reported with its line number; a
 * payment given twice is refused so that one run never moves money for the same payment twice.
 */
export async function openBulkInput(
  source: AsyncIterable<Buffer | string>,
  op: BulkOp,
): Promise<{ format: ParsedInput['format']; events: AsyncGenerator<InputEvent> }> {
  const decoder = new StringDecoder('utf8');
  const it = source[Symbol.asyncIterator]();
  let head = '';
  let ended = false;
  // Enough of the start to see the first non-blank line.
  while (!/\S[^\n]*\n/.test(head.replace(/^\uFEFF/, ''))) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      head += decoder.end();
      break;
    }
    head += typeof r.value === 'string' ? r.value : decoder.write(r.value);
  }
  const first =
    head
      .replace(/^\uFEFF/, '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  // A line that is only `[` or `{` opens a JSON document (`-o json`); `{…}` on one line is NDJSON.
  const format: ParsedInput['format'] =
    first.startsWith('[') || first === '{'
      ? 'json'
      : first.startsWith('{')
        ? 'ndjson'
        : /(^|,)\s*"?(payment_id|id)"?\s*(,|$)/.test(first)
          ? 'csv'
          : 'ids';
  const text = (async function* () {
    yield format === 'csv' ? head : head.replace(/^\uFEFF/, '');
    if (ended) return;
    for (let r = await it.next(); !r.done; r = await it.next())
      yield typeof r.value === 'string' ? r.value : decoder.write(r.value);
    yield decoder.end();
  })();
  const c = new Checker(op);
  const events = async function* (): AsyncGenerator<InputEvent> {
    if (format === 'csv') return yield* csvEvents(text, c);
    if (format === 'json') {
      let whole = '';
      for await (const chunk of text) whole += chunk;
      return yield* jsonEvents(c, whole);
    }
    for await (const [line, n] of lines(text)) {
      if (format === 'ndjson') yield* ndjsonEvents(c, line, n);
      else {
        const event = idLine(c, line, n);
        if (event) yield event;
      }
    }
  };
  return { format, events: events() };
}

/** Every valid item, and the first problems. */
export async function readBulkInput(source: AsyncIterable<Buffer | string>, op: BulkOp): Promise<ParsedInput> {
  const { format, events } = await openBulkInput(source, op);
  const out: ParsedInput = { format, items: [], problems: [], problemCount: 0 };
  for await (const e of events) collect(out, e);
  return out;
}

function collect(out: ParsedInput, e: InputEvent) {
  if (e.item) return void out.items.push(e.item);
  out.problemCount++;
  if (out.problems.length < KEEP_PROBLEMS) out.problems.push(e.problem);
}

/** The same, from text in memory. */
export const parseBulkInput = (text: string, op: BulkOp) =>
  readBulkInput(
    (async function* () {
      yield text;
    })(),
    op,
  );

/** Ids given as arguments: the same checks, numbered by position. */
export function itemsFromArgs(args: string[], op: BulkOp): ParsedInput {
  const c = new Checker(op);
  const out: ParsedInput = { format: 'ids', items: [], problems: [], problemCount: 0 };
  args.forEach((arg, i) => collect(out, c.check(i + 1, { payment_id: arg })));
  return out;
}
