import { LIMITS } from '../spec/common';
import { parseAmount } from '../parse/amount';
import { parseCsvRows } from '../parse/csv-rows';
import { parseCurrency } from '../parse/currency';
import { parseId } from '../parse/id';
import { parseNotes } from '../parse/notes';
import type { Result } from '../parse/result';

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
  problems: InputProblem[];
}

type Fields = { payment_id?: unknown; amount?: unknown; currency?: unknown; receipt?: unknown; notes?: Record<string, unknown> };

const CSV_COLUMNS = new Set(['payment_id', 'amount', 'currency', 'receipt']);

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

function fromIds(lines: string[], op: BulkOp, out: ParsedInput) {
  lines.forEach((raw, i) => {
    const text = raw.trim();
    if (!text || text.startsWith('#')) return;
    const r = itemFrom(i + 1, { payment_id: text }, op);
    if (r.ok) out.items.push(r.value);
    else out.problems.push({ line: i + 1, message: r.error });
  });
}

function fromNdjson(lines: string[], op: BulkOp, out: ParsedInput) {
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      out.problems.push({ line, message: 'not a JSON object' });
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      out.problems.push({ line, message: 'not a JSON object' });
      return;
    }
    const v = value as Record<string, unknown>;
    const notes = v.notes;
    if (notes !== undefined && (notes === null || typeof notes !== 'object')) {
      out.problems.push({ line, message: 'notes must be an object of key: value' });
      return;
    }
    // `notes: []` is what the service itself sends for "no notes".
    const r = itemFrom(line, { ...v, notes: Array.isArray(notes) ? {} : (notes as Record<string, unknown>) }, op);
    if (r.ok) out.items.push(r.value);
    else out.problems.push({ line, message: r.error });
  });
}

function fromCsv(text: string, op: BulkOp, out: ParsedInput) {
  const parsed = parseCsvRows(text);
  if (!parsed.ok) {
    out.problems.push({ line: Number(/line (\d+)/.exec(parsed.error)?.[1] ?? 1), message: parsed.error.replace(/^line \d+: /, '') });
    return;
  }
  const [header, ...rows] = parsed.value;
  if (!header) return;
  const names = header.cells.map((c) => c.trim().replace(/^\uFEFF/, ''));
  const unknown = names.filter((n) => !CSV_COLUMNS.has(n) && !/^note\.[^.\s]+$/.test(n));
  if (!names.includes('payment_id') || unknown.length) {
    out.problems.push({
      line: header.line,
      message: unknown.length
        ? `unknown CSV column(s) ${unknown.map((n) => JSON.stringify(n)).join(', ')}: use payment_id, amount, currency, receipt, note.<key>`
        : 'the CSV header needs a payment_id column',
    });
    return;
  }
  for (const row of rows) {
    if (row.cells.every((c) => c.trim() === '')) continue;
    if (row.cells.length !== names.length) {
      out.problems.push({ line: row.line, message: `${row.cells.length} field(s) where the header has ${names.length}` });
      continue;
    }
    const fields: Fields = { notes: {} };
    names.forEach((name, i) => {
      const cell = row.cells[i]!.trim();
      if (name.startsWith('note.')) fields.notes![name.slice(5)] = cell;
      else (fields as Record<string, unknown>)[name] = cell;
    });
    const r = itemFrom(row.line, fields, op);
    if (r.ok) out.items.push(r.value);
    else out.problems.push({ line: row.line, message: r.error });
  }
}

/**
 * The --input of a bulk run, in whichever of the three shapes it comes: NDJSON when the first line
 * is an object, CSV when it is a header naming payment_id, otherwise one id per line (blank lines and
 * `#` comments skipped). Every bad row is reported with its line number; a payment given twice is
 * refused so that one run never moves money for the same payment twice.
 */
export function parseBulkInput(text: string, op: BulkOp): ParsedInput {
  const lines = text.split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  const format: ParsedInput['format'] = first.startsWith('{') ? 'ndjson' : /(^|,)\s*"?payment_id"?\s*(,|$)/.test(first.replace(/^\uFEFF/, '')) ? 'csv' : 'ids';
  const out: ParsedInput = { format, items: [], problems: [] };
  if (format === 'ndjson') fromNdjson(lines, op, out);
  else if (format === 'csv') fromCsv(text, op, out);
  else fromIds(lines, op, out);
  return dedupe(out, op);
}

/** Ids given as arguments: the same checks, numbered by position. */
export function itemsFromArgs(args: string[], op: BulkOp): ParsedInput {
  const out: ParsedInput = { format: 'ids', items: [], problems: [] };
  args.forEach((arg, i) => {
    const r = itemFrom(i + 1, { payment_id: arg }, op);
    if (r.ok) out.items.push(r.value);
    else out.problems.push({ line: i + 1, message: r.error });
  });
  return dedupe(out, op);
}

function dedupe(input: ParsedInput, op: BulkOp): ParsedInput {
  const seen = new Map<string, number>();
  const items: BulkItem[] = [];
  for (const item of input.items) {
    const first = seen.get(item.id);
    if (first !== undefined) {
      input.problems.push({ line: item.line, message: `${item.id} is already on line ${first}: one run ${op}s each payment once` });
      continue;
    }
    seen.set(item.id, item.line);
    items.push(item);
  }
  input.problems.sort((a, b) => a.line - b.line);
  return { ...input, items };
}
