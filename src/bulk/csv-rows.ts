import { err, ok } from '../contract/values/result';
import type { Result } from '../contract/values/result';

interface CsvRow {
  /** 1-based line where the row starts (a quoted field may span lines). */
  line: number;
  cells: string[];
}

/**
 * RFC 4180 rows: comma-separated, fields optionally in double quotes with "" for a quote, CRLF or LF.
 * Blank lines are skipped. An unterminated quote is an error naming the line it opened on.
 */
export function parseCsvRows(text: string): Result<CsvRow[]> {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let rowLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let touched = false;
  const endRow = () => {
    if (touched || cells.length > 0 || cell !== '') rows.push({ line: rowLine, cells: [...cells, cell] });
    cells = [];
    cell = '';
    touched = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
      touched = true;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      touched = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (quoted) return err(`line ${quoteLine}: a quoted field is never closed`);
  endRow();
  return ok(rows);
}
