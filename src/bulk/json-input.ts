import { didYouMean } from '../contract/values/did-you-mean';
import { isJsonObject, parseJson, repeatedKey } from '../contract/values/json';
import type { Checker, Fields, InputEvent } from './input';

const NDJSON_KEYS = ['payment_id', 'amount', 'currency', 'receipt', 'notes'];

const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;

/**
 * A record payctl itself printed (`payments list -o ndjson|json`): a payment is a row by its id, with
 * its amount and currency (for a capture, an authorized payment's own figures are its full amount;
 * for a refund, never more than the record shows, and the service refuses what no longer remains).
 * Its other keys describe the payment, not the request: a payment's notes are not a refund's notes.
 */
function fromRecord(v: Record<string, unknown>): Fields | string {
  if (v.entity !== 'payment')
    return `a ${typeof v.entity === 'string' ? `"${v.entity}"` : kindOf(v.entity)} record where a payment is expected`;
  return { payment_id: v.id, amount: v.amount, currency: v.currency };
}

/** A row written by hand: the row keys only, with `id` as another name for payment_id. */
function fromRow(v: Record<string, unknown>): Fields | string {
  const keys = [...NDJSON_KEYS, 'id'];
  const unknown = Object.keys(v).filter((k) => !keys.includes(k));
  if (unknown.length) {
    const named = unknown.map((k) => `"${k}"${didYouMean(k, NDJSON_KEYS)}`).join(', ');
    return `unknown key ${named}: a row takes ${NDJSON_KEYS.join(', ')} (or a payment record as payctl prints it)`;
  }
  if ('id' in v && 'payment_id' in v) return 'both id and payment_id: give the payment once';
  const { id, ...rest } = v;
  const notes = rest.notes;
  if (notes !== undefined && (notes === null || typeof notes !== 'object'))
    return 'notes must be an object of key: value';
  // `notes: []` is what the service itself sends for "no notes".
  const fields = { ...rest, notes: Array.isArray(notes) ? {} : (notes as Record<string, unknown> | undefined) };
  return 'id' in v ? { ...fields, payment_id: id } : fields;
}

/** One parsed value as a row: a payment record, a row object, or (in a JSON array) a bare id. */
function valueEvent(c: Checker, v: unknown, line: number, idsAllowed = false): InputEvent {
  if (idsAllowed && typeof v === 'string') return c.check(line, { payment_id: v });
  if (!isJsonObject(v)) return { problem: { line, message: `not a JSON object (got ${kindOf(v)})` } };
  const fields = 'entity' in v ? fromRecord(v) : fromRow(v);
  if (typeof fields === 'string') return { problem: { line, message: fields } };
  return c.check(line, fields);
}

const givenTwice = (key: string) =>
  `key "${key}" is given twice in one object (JSON would silently keep the last): give it once`;

/** One NDJSON line: a row, or a collection's items. */
export function* ndjsonEvents(c: Checker, raw: string, line: number): Generator<InputEvent> {
  if (!raw.trim()) return;
  const parsed = parseJson(raw);
  if (!parsed.ok) return yield { problem: { line, message: 'not a JSON object (the line is not valid JSON)' } };
  const twice = repeatedKey(raw);
  if (twice !== undefined) return yield { problem: { line, message: givenTwice(twice) } };
  yield* valueEvents(c, parsed.value, line);
}

/** A collection as the service sends it (`payctl api … -o json`) stands for its items. */
function* valueEvents(c: Checker, v: unknown, line: number, idsAllowed = false): Generator<InputEvent> {
  if (isJsonObject(v) && v.entity === 'collection' && Array.isArray(v.items)) {
    for (const item of v.items) yield valueEvent(c, item, line);
  } else yield valueEvent(c, v, line, idsAllowed);
}

/**
 * The top-level values of a JSON array (or the one value of a document) with the line each starts
 * on, found by a scan that tracks strings and nesting, so a problem names the line a person sees.
 */
function* topLevel(text: string): Generator<{ slice: string; line: number } | { error: string; line: number }> {
  const open = text.search(/\S/);
  if (text[open] !== '[') {
    yield { slice: text, line: text.slice(0, Math.max(open, 0)).split('\n').length };
    return;
  }
  let line = 1 + (text.slice(0, open).match(/\n/g)?.length ?? 0);
  let depth = 0;
  let start = -1;
  let startLine = line;
  let inString = false;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (start < 0 && /\S/.test(ch) && ch !== ',' && ch !== ']') [start, startLine] = [i, line];
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && depth > 0) depth--;
    else if ((ch === ',' || ch === ']') && depth === 0) {
      if (start >= 0) yield { slice: text.slice(start, i), line: startLine };
      start = -1;
      if (ch === ']') {
        if (text.slice(i + 1).trim()) yield { error: 'text after the end of the JSON array', line };
        return;
      }
    }
  }
  yield { error: 'the JSON array is never closed', line };
}

/**
 * A JSON document (`-o json`): an array of records or ids, one record, or a collection as the
 * service sends it (`payctl api … -o json`). Read whole: it is one value.
 */
export function* jsonEvents(c: Checker, text: string): Generator<InputEvent> {
  for (const part of topLevel(text)) {
    if ('error' in part) return yield { problem: { line: part.line, message: part.error } };
    const parsed = parseJson(part.slice);
    if (!parsed.ok) return yield { problem: { line: part.line, message: 'not valid JSON' } };
    const twice = repeatedKey(part.slice);
    if (twice !== undefined) {
      yield { problem: { line: part.line, message: givenTwice(twice) } };
      continue;
    }
    yield* valueEvents(c, parsed.value, part.line, part.slice !== text);
  }
}
