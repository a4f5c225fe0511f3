import { parseId } from '../contract/values/id';
import type { IdKind } from '../contract/values/id';
import { isJsonObject, parseJson } from '../contract/values/json';
import { parseCsvRows } from './csv-rows';

export type { IdKind };

/** One id to read, or why none can be read there; `where` names the place ("line 3", "item 2", "argument 1"). */
export type IdEntry =
  { where: string; id: string; problem?: undefined } | { where: string; problem: string; id?: string };

/** What names the record in a row: its own `id`, else `payment_id` / `refund_id`. */
function idOf(value: unknown, kind: IdKind): unknown {
  if (typeof value === 'string') return value;
  if (!isJsonObject(value)) return undefined;
  if (typeof value.entity === 'string' && value.entity !== kind) return undefined;
  return value.id ?? value[`${kind}_id`];
}

/** One id as given (an argument, a line, a cell): checked, or the problem with it. */
export function idEntry(where: string, raw: unknown, kind: IdKind): IdEntry {
  if (typeof raw !== 'string' || !raw.trim()) return { where, problem: `${where}: no ${kind} id` };
  const id = parseId(raw, kind);
  return id.ok ? { where, id: id.value } : { where, id: raw.trim(), problem: `${where}: ${id.error}` };
}

/** The rows a parsed JSON value stands for: a collection its items, an array its elements. */
function rowsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (isJsonObject(value) && value.entity === 'collection' && Array.isArray(value.items)) return value.items;
  return [value];
}

/**
 * The ids of a `get` of many, from text in whichever shape it comes: one id a line (blank lines and `#`
 * comments skipped), or payctl's own output: NDJSON or a JSON document of records (`-o ndjson|json`), or
 * CSV with an `id` (or `payment_id` / `refund_id`) column (`-o csv`). A line without a valid id is an entry
 * with its problem, so that it becomes a row of the output rather than stopping the run.
 */
export function idsFromText(text: string, kind: IdKind): IdEntry[] {
  const body = text.replace(/^\uFEFF/, '');
  const first =
    body
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (first.startsWith('[') || first === '{') {
    const parsed = parseJson(body);
    if (!parsed.ok) return [{ where: 'line 1', problem: '--input is not valid JSON' }];
    return rowsOf(parsed.value).map((row, i) => idEntry(`item ${i + 1}`, idOf(row, kind), kind));
  }
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  if (first.startsWith('{')) {
    return lines.flatMap((raw, i) => {
      if (!raw.trim()) return [];
      const parsed = parseJson(raw);
      if (!parsed.ok) return [{ where: `line ${i + 1}`, problem: `line ${i + 1}: not valid JSON` }];
      return rowsOf(parsed.value).map((row) => idEntry(`line ${i + 1}`, idOf(row, kind), kind));
    });
  }
  const header = first.split(',').map((h) => h.trim().replace(/^"|"$/g, ''));
  const column = ['id', `${kind}_id`].map((name) => header.indexOf(name)).find((at) => at >= 0);
  if (column !== undefined) {
    const rows = parseCsvRows(body);
    if (!rows.ok) return [{ where: 'line 1', problem: rows.error }];
    return rows.value.slice(1).map((row) => idEntry(`line ${row.line}`, row.cells[column], kind));
  }
  return lines.flatMap((raw, i) =>
    !raw.trim() || raw.trim().startsWith('#') ? [] : [idEntry(`line ${i + 1}`, raw, kind)],
  );
}
