import type { Prepared } from '../api/client';
import type { ResourceKind } from '../output/columns';

/** What a handler hands back to the CLI layer, which renders it and picks the exit code. */
export type CommandResult =
  | { type: 'one'; kind: ResourceKind; data: unknown }
  | { type: 'many'; kind: ResourceKind; items: AsyncIterable<unknown> | Iterable<unknown>; after?: (rows: number) => string | undefined }
  | { type: 'dry-run'; requests: Prepared[]; note?: string }
  | { type: 'lines'; lines: string[] }
  | { type: 'done'; message?: string }
  | { type: 'serve'; lines: string[]; until: Promise<void> };

export const one = (kind: ResourceKind, data: unknown): CommandResult => ({ type: 'one', kind, data });
export const many = (kind: ResourceKind, items: AsyncIterable<unknown> | Iterable<unknown>): CommandResult => ({ type: 'many', kind, items });

/** Positional arguments and options of one command, as commander parsed them. */
export interface Input {
  args: string[];
  opts: Record<string, unknown>;
}
