import type { Prepared } from '../client/client';
import type { ResourceKind } from '../output/columns';
import type { FileFormat } from '../output/export';
import type { Rows } from '../output/render';
import type { ExportSummary } from '../output/summary';

export interface ManyResult {
  type: 'many';
  kind: ResourceKind;
  items: Rows;
  /** A summary line for stderr once every row is out. */
  after?: (rows: number) => string | undefined;
  /** Runs after rendering; may throw (e.g. BulkIncompleteError) to set the exit code. */
  finish?: () => void | Promise<void>;
  /** --out: write to this file atomically instead of stdout, in this format (from its extension). */
  out?: string;
  outFormat?: FileFormat;
  /** Rows of a list of customers: `customer_id` leads the columns; rows read by many ids end in `error`. */
  tagged?: boolean;
  /** Noted as rows stream past: range, totals, ledgers; on stderr and in a workbook's Summary sheet. */
  summary?: ExportSummary;
}

/** What --dry-run would send. A plan read now (`--read`) also says what it fixed, and what it read. */
export interface DryRunResult {
  type: 'dry-run';
  requests: Prepared[];
  note?: string;
  /** Options (by their long names) that, given to the same command, make it send exactly these requests. */
  fixed?: Record<string, string>;
  /** What the service holds of the thing being changed, read for this plan. */
  state?: Record<string, unknown>;
}

/** What a handler hands back to the CLI layer, which renders it and picks the exit code. */
export type CommandResult =
  | {
      type: 'one';
      kind: ResourceKind;
      data: unknown;
      out?: string;
      /** A hint line for stderr once the data is out; `finish` may then throw to set the exit code. */
      after?: () => string | undefined;
      finish?: () => void | Promise<void>;
    }
  | ManyResult
  | DryRunResult
  /** Text lines (ids for a pipe); `json`, when given, is what an explicit -o json prints instead. */
  | { type: 'lines'; lines: string[]; json?: unknown }
  | { type: 'done'; message?: string }
  /** Serves until `until`: `record` as one JSON line for json/ndjson, else `lines` for people. */
  | { type: 'serve'; record: Record<string, unknown>; lines: string[]; until: Promise<void> };

export const one = (kind: ResourceKind, data: unknown): CommandResult => ({ type: 'one', kind, data });
export const many = (kind: ResourceKind, items: Rows): ManyResult => ({
  type: 'many',
  kind,
  items,
});
