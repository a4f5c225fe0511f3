/**
 * Fitting a table into the terminal: which columns stay, how wide each is, and shortening with `…`.
 * Widths are terminal cells: East Asian wide characters and emoji take two, combining marks none.
 */

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
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
 * Otherwise columns are taken most important first, each at its full width while it fits; a text
 * column that no longer fits takes the room left (cut with …) if that is at least its minimum; a
 * column that fits neither way is left out, and less important narrower ones may still fit after it.
 */
export function fitColumns(
  columns: FitColumn[],
  cells: string[][],
  width: number | undefined,
): { keep: number[]; widths: number[] } {
  const natural = columns.map((c, i) => Math.max(textWidth(c.header), ...cells.map((row) => textWidth(row[i] ?? ''))));
  if (width === undefined) return { keep: columns.map((_, i) => i), widths: natural };
  const min = columns.map((c, i) =>
    c.shrinkable ? Math.min(natural[i]!, Math.max(textWidth(c.header), MIN_SHRUNK)) : natural[i]!,
  );
  const byRank = columns.map((_, i) => i).sort((a, b) => columns[a]!.rank - columns[b]!.rank || a - b);
  const widths = [...natural];
  const keep: number[] = [];
  let used = 0;
  for (const i of byRank) {
    const room = width - used - (keep.length ? GAP : 0);
    if (natural[i]! <= room) widths[i] = natural[i]!;
    else if (columns[i]!.shrinkable && min[i]! <= room) widths[i] = room;
    else continue;
    keep.push(i);
    used += widths[i]! + (keep.length > 1 ? GAP : 0);
  }
  // Not even the most important column fits: it is cut to the terminal, whatever it holds.
  if (!keep.length) {
    keep.push(byRank[0]!);
    widths[byRank[0]!] = Math.max(1, width);
  }
  return { keep: keep.sort((a, b) => a - b), widths };
}

/**
 * A hint line broken between words so that no line is wider than `width` (the terminal's; undefined:
 * unchanged). A terminal would break it mid-word; a word longer than the width stays whole.
 */
export function wrapLine(text: string, width: number | undefined): string {
  if (width === undefined || width < 20 || textWidth(text) <= width) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && textWidth(line) + 1 + textWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Each line of a block of hint lines wrapped at `width`. */
export const wrapLines = (text: string, width: number | undefined) =>
  text
    .split('\n')
    .map((l) => wrapLine(l, width))
    .join('\n');
