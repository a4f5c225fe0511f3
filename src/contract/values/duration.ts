import { err, ok } from './result';
import type { Result } from './result';

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `90s`, `30m`, `24h`, `6d`, `2w`, combinations like `1d12h`, or bare seconds. */
export function parseDuration(raw: string): Result<number> {
  const text = raw.trim().toLowerCase();
  if (/^\d+$/.test(text)) return ok(Number(text));
  if (!/^(\d+[smhdw])+$/.test(text))
    return err(`duration must look like 90s, 30m, 24h, 6d, 2w or 1d12h: got ${JSON.stringify(raw)}`);
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)([smhdw])/g)) total += Number(n) * UNIT[unit!]!;
  return ok(total);
}
