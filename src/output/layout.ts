/**
 * Fitting a table into the terminal: which columns stay, how wide each is, and shortening with `…`.
 * Widths are terminal cells: East Asian wide characters and emoji take two, combining marks none.
 */

const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO = /^(?:\p{Mn}|\p{Me}|[\u200b-\u200f]|[\ufe00-\ufe0f])$/u;

function charWidth(ch: string): number {
  if (ZERO.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

export function textWidth(text: string): number {
  let n = 0;
  for (const ch of text) n += charWidth(ch);
  return n;
}

/** `text` cut to at most `width` cells, ending in `…` when anything was cut. */
export function shorten(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

export function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - textWidth(text)));
}

export interface FitColumn {
  header: string;
  /** Lower is more important; the least important go first when the terminal is narrow. */
  rank: number;
  /** Text that may be cut (names, e-mails, descriptions); ids, money, times and statuses never are. */
  shrinkable: boolean;
}

export const GAP = 2;
/** A shrinkable column keeps at least this many cells (or its header's width), so it stays readable. */
const MIN_SHRUNK = 12;

/**
 * Chooses the columns to show and their widths. With `width` undefined everything is shown in full.
 * Columns are dropped least important first until the rest fit at their minimum widths; then shrinkable
 * columns give up cells, the widest first, until the line fits.
 */
export function fitColumns(columns: FitColumn[], cells: string[][], width: number | undefined): { keep: number[]; widths: number[] } {
  const natural = columns.map((c, i) => Math.max(textWidth(c.header), ...cells.map((row) => textWidth(row[i] ?? ''))));
  const all = columns.map((_, i) => i);
  if (width === undefined) return { keep: all, widths: natural };
  const min = columns.map((c, i) => (c.shrinkable ? Math.min(natural[i]!, Math.max(textWidth(c.header), MIN_SHRUNK)) : natural[i]!));
  const total = (ids: number[], w: number[]) => ids.reduce((s, i) => s + w[i]!, 0) + GAP * Math.max(0, ids.length - 1);
  let keep = all;
  while (keep.length > 1 && total(keep, min) > width) {
    const least = keep.reduce((a, b) => (columns[b]!.rank > columns[a]!.rank ? b : a));
    keep = keep.filter((i) => i !== least);
  }
  const widths = [...natural];
  let excess = total(keep, widths) - width;
  while (excess > 0) {
    const candidates = keep.filter((i) => widths[i]! > min[i]!);
    if (!candidates.length) break;
    const widest = candidates.reduce((a, b) => (widths[b]! - min[b]! > widths[a]! - min[a]! ? b : a));
    widths[widest]!--;
    excess--;
  }
  // One column left and still too wide: it is cut to the terminal, whatever it holds.
  if (excess > 0 && keep.length === 1) widths[keep[0]!] = Math.max(1, width);
  return { keep, widths };
}
