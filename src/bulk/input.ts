import { LIMITS } from '../spec/common';
import { parseAmount } from '../parse/amount';
import { parseCurrency } from '../parse/currency';
import { parseId } from '../parse/id';
import { parseNotes } from '../parse/notes';
import type { Result } from '../parse/result';
import { StringDecoder } from 'node:string_decoder';
import { fromCsv } from './csv-input';
import { didYouMean } from './did-you-mean';

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

export interface ParsedInput {
  format: 'ids' | 'csv' | 'ndjson';
  items: BulkItem[];
  /** The first problems, in line order. */
  problems: InputProblem[];
  problemCount: number;
}

export type Fields = { payment_id?: unknown; amount?: unknown; currency?: unknown; receipt?: unknown; notes?: Record<string, unknown> };


/** Checks one row's fields; the first problem wins, so each bad row gives one clear line. */
export function itemFrom(line: number, fields: Fields, op: BulkOp): Result<BulkItem> {
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
    if ([...receipt].length > LIMITS.receiptChars) return fail(`receipt is longer than ${LIMITS.receiptChars} characters`);
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
  return { ok: true, value: item };
}

const NDJSON_KEYS = ['payment_id', 'amount', 'currency', 'receipt', 'notes'];
/** Problems kept for the report; beyond this only their number (a million bad rows stay small). */
const KEEP_PROBLEMS = 1000;

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : `a ${typeof v}`);

/** Collects rows as they are read: valid items, problems (capped), each payment once. */
export class Collector {
  readonly items: BulkItem[] = [];
  readonly problems: InputProblem[] = [];
  problemCount = 0;
  private readonly seen = new Map<string, number>();

  constructor(private readonly op: BulkOp) {}

  problem(line: number, message: string) {
    this.problemCount++;
    if (this.problems.length < KEEP_PROBLEMS) this.problems.push({ line, message });
  }

  fields(line: number, fields: Fields) {
    const r = itemFrom(line, fields, this.op);
    if (!r.ok) return this.problem(line, r.error);
    const first = this.seen.get(r.value.id);
    if (first !== undefined) return this.problem(line, `${r.value.id} is already on line ${first}: one run ${this.op}s each payment once`);
    this.seen.set(r.value.id, line);
    this.items.push(r.value);
  }
}

function idLine(c: Collector, raw: string, line: number) {
  const text = raw.trim();
  if (!text || text.startsWith('#')) return;
  c.fields(line, { payment_id: text });
}

function ndjsonLine(c: Collector, raw: string, line: number) {
  if (!raw.trim()) return;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return c.problem(line, 'not a JSON object (the line is not valid JSON)');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return c.problem(line, `not a JSON object (got ${kindOf(value)})`);
  const v = value as Record<string, unknown>;
  const unknown = Object.keys(v).filter((k) => !NDJSON_KEYS.includes(k));
  if (unknown.length) {
    const named = unknown.map((k) => `"${k}"${didYouMean(k, NDJSON_KEYS)}`).join(', ');
    return c.problem(line, `unknown key ${named}: a row takes ${NDJSON_KEYS.join(', ')}`);
  }
  const notes = v.notes;
  if (notes !== undefined && (notes === null || typeof notes !== 'object')) return c.problem(line, 'notes must be an object of key: value');
  // `notes: []` is what the service itself sends for "no notes".
  c.fields(line, { ...v, notes: Array.isArray(notes) ? {} : (notes as Record<string, unknown>) });
}

/** Text chunks split into lines (LF or CRLF), numbered from 1. */
async function eachLine(text: AsyncIterable<string>, fn: (line: string, n: number) => void) {
  let rest = '';
  let n = 0;
  for await (const chunk of text) {
    rest += chunk;
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      fn(rest.slice(0, at).replace(/\r$/, ''), ++n);
      rest = rest.slice(at + 1);
    }
  }
  if (rest) fn(rest.replace(/\r$/, ''), ++n);
}

/**
 * The --input of a bulk run, read as a stream, in whichever of the three shapes it comes: NDJSON
 * when the first line is an object, CSV when it is a header naming payment_id, otherwise one id per
 * line (blank lines and `#` comments skipped). Every bad row is reported with its line number; a
 * payment given twice is refused so that one run never moves money for the same payment twice.
 */
export async function readBulkInput(source: AsyncIterable<Buffer | string>, op: BulkOp): Promise<ParsedInput> {
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
  const first = head.replace(/^\uFEFF/, '').split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  const format: ParsedInput['format'] = first.startsWith('{') ? 'ndjson' : /(^|,)\s*"?payment_id"?\s*(,|$)/.test(first) ? 'csv' : 'ids';
  const text = (async function* () {
    yield format === 'csv' ? head : head.replace(/^\uFEFF/, '');
    if (ended) return;
    for (let r = await it.next(); !r.done; r = await it.next()) yield typeof r.value === 'string' ? r.value : decoder.write(r.value);
    yield decoder.end();
  })();
  const c = new Collector(op);
  if (format === 'csv') await fromCsv(text, c);
  else await eachLine(text, (line, n) => (format === 'ndjson' ? ndjsonLine(c, line, n) : idLine(c, line, n)));
  return { format, items: c.items, problems: c.problems, problemCount: c.problemCount };
}

/** The same, from text in memory. */
export const parseBulkInput = (text: string, op: BulkOp) => readBulkInput((async function* () {
  yield text;
})(), op);

/** Ids given as arguments: the same checks, numbered by position. */
export function itemsFromArgs(args: string[], op: BulkOp): ParsedInput {
  const c = new Collector(op);
  args.forEach((arg, i) => c.fields(i + 1, { payment_id: arg }));
  return { format: 'ids', items: c.items, problems: c.problems, problemCount: c.problemCount };
}
