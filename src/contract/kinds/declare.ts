/**
 * How a kind of row payctl shows is declared: one file per resource in this folder, one registry line
 * in ./index.ts. Plain data (no schema library), so that help, tables and `--fields` checks load fast;
 * renderers, the `--fields` catalogue, `payctl api`'s choice of columns and exports derive from it.
 */

export type ColumnType = 'text' | 'money' | 'time' | 'bool' | 'json';

export interface ColumnSpec {
  key: string;
  type: ColumnType;
  /** Older payloads name some fields differently (transfer `transfer_status`). */
  fallback?: string;
  /** Where a money column's currency is; default the row's `currency` (see `walletCurrency`). */
  currencyKey?: string;
  /** A table shows it only when some row has a value in it (the `error` of an id that could not be read). */
  whenSet?: boolean;
  /** A shorter header a table may show, so that the column fits a narrow terminal (CSV and xlsx keep `key`). */
  short?: string;
}

/**
 * A field of a record the service sends, as plain data: the reading schema (tolerant: numbers may come as
 * digit strings, `?` fields null or absent), the record's exact type (what the sandbox keeps and answers)
 * and the `--fields` catalogue all derive from it (src/contract/served.ts).
 *
 * `string`, `int` (a number, or digit string when read), `number`, `bool`, or two of them (`string|number`:
 * either); a trailing `?`: null or, when read, absent. A leading `~`: read unchecked (real payloads vary),
 * what follows is what the service sends. `old:`: an older payload's field, absent from today's records.
 * `notes`: a free-form map (`{}`, or `[]` on older records); `json`: an object `--fields` may pick keys of,
 * or none, read unchecked; `any`: any value, read unchecked. An object of such tags: a nested object
 * (`nullable`: it may be null).
 */
type Base = 'string' | 'int' | 'number' | 'bool';
type Types = Base | `${Base}|${Base}`;
type Value = Types | `${Types}?`;
export type FieldTag = Value | `~${Value}` | `old:${Value}` | 'notes' | 'json' | 'any';
export interface NestedField {
  readonly object: Readonly<Record<string, FieldTag>>;
  readonly nullable?: true;
}
export type FieldSpec = FieldTag | NestedField;

export interface KindDeclaration {
  /** The service's `entity` of these records and the last path segment of their list (`/customers`). */
  entity?: string;
  path?: string;
  /** What the service's ids of these records start with, before the `_` (`pay` of `pay_…`). */
  idPrefix?: string;
  /**
   * The record's fields besides `id` and `entity`, as the service sends them: its reading schema, the
   * sandbox's record type and the `--fields` catalogue (`fields`) derive from them.
   */
  record?: Readonly<Record<string, FieldSpec>>;
  /** The service reads these records at `GET /{path}` (a page, newest first) and `GET /{path}/:id`. */
  reads?: true;
  /** Columns of table, CSV, xlsx and picked JSON, in order. */
  columns: readonly ColumnSpec[];
  /**
   * Table columns by importance: on a narrow terminal (80 columns) the last go first. Columns not
   * listed rank after these by their position.
   */
  table?: readonly string[];
  /** The column shown first when rows come from several parents (a statement of many customers). */
  parent?: ColumnSpec;
  /** Exports add a `currency` column after this money column (whose currency it is). */
  currencyAfter?: string;
  /** Money of these rows is in INR when a row names no currency (wallet rows). */
  walletCurrency?: boolean;
  /** Read by many ids at once (`payments get ID...`): tagged rows end in `error`, set on an id that failed. */
  fetchedById?: boolean;
  /** The name of an xlsx export's data sheet (default "Rows"). */
  sheet?: string;
  /**
   * Written by `declare` from `record`: the fields `--fields` is checked against, and the ones whose values
   * are objects any key of which may be picked (`notes.reason`). Without it any name is taken.
   */
  fields?: { plain: readonly string[]; objects: readonly string[] };
}

export const col = (key: string, type: ColumnType = 'text', extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  key,
  type,
  ...extra,
});

/** A kind, as written (its literal entity, path and fields kept for the types derived from it). */
export function declare<const K extends KindDeclaration>(kind: K): K {
  if (!kind.record) return kind;
  const keys = Object.keys(kind.record);
  const object = (k: string) => isObjectField(kind.record![k]!);
  return {
    ...kind,
    fields: { plain: ['id', 'entity', ...keys.filter((k) => !object(k))], objects: keys.filter(object) },
  };
}

/** Fields whose values are objects any key of which `--fields` may pick (`notes.reason`, `item.name`). */
const isObjectField = (spec: FieldSpec) => typeof spec === 'object' || spec === 'notes' || spec === 'json';
