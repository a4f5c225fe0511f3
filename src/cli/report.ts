import type { IO } from '../commands/context';
import { ApiError } from '../contract/errors';
import { stripControl } from '../output/sanitize';
import { refusalLine } from './refusal';

/** Strings in an error object, cleaned like every other service text that reaches a terminal. */
const cleanDeep = (v: unknown): unknown =>
  typeof v === 'string'
    ? stripControl(v)
    : Array.isArray(v)
      ? v.map(cleanDeep)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cleanDeep(x)]))
        : v;

export function failedOutput(err: NodeJS.ErrnoException, io: IO): number {
  io.stderr.write(`payctl: could not write to stdout (${err.code ?? err.message}): the output is incomplete\n`);
  return 1;
}

/** `verb`: the command's own name (`refund`), which a refused read on its way is reported under. */
export function report(err: unknown, io: IO, json: boolean, debug: boolean, verb?: string) {
  const e = err as {
    message?: string;
    hints?: string[];
    kind?: string;
    toJSON?: () => unknown;
    stack?: string;
  };
  // Messages and hints quote the service (descriptions, bodies of odd answers): no escape sequence
  // from there may retitle, clear or reorder the terminal.
  // A service refusal is one line in the user's terms: the operation, the id, then the service's words.
  const lines = [
    `payctl: ${err instanceof ApiError ? refusalLine(err, verb) : stripControl(e?.message ?? String(err))}`,
  ];
  for (const hint of e?.hints ?? []) lines.push(`  ${stripControl(hint)}`);
  if (debug && e?.stack) lines.push(...e.stack.split('\n').slice(1).map(stripControl));
  io.stderr.write(`${lines.join('\n')}\n`);
  const failure = { kind: 'failure', message: e?.message ?? String(err) };
  if (json) io.stderr.write(`${JSON.stringify({ error: cleanDeep(e?.toJSON ? e.toJSON() : failure) })}\n`);
}
