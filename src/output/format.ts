import { err, ok } from '../contract/values/result';
import type { Result } from '../contract/values/result';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** --output over PAYCTL_OUTPUT; otherwise a table for people and JSON for pipes. */
export function resolveFormat(
  flag: string | undefined,
  env: string | undefined,
  stdoutIsTTY: boolean,
): Result<OutputFormat> {
  const value = flag ?? (env || undefined);
  if (value === undefined) return ok(stdoutIsTTY ? 'table' : 'json');
  return (OUTPUT_FORMATS as readonly string[]).includes(value)
    ? ok(value as OutputFormat)
    : err(`output format must be one of ${OUTPUT_FORMATS.join(', ')}: got ${JSON.stringify(value)}`);
}
