import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import type * as XLSX from 'xlsx';
import type { SandboxProcess } from './harness';

// What the export tests share: seeding a wallet statement, naming instants, and reading back what
// an export wrote (CSV here, xlsx below).

/** The Unix time of an ISO 8601 instant with its offset (`2024-04-30T23:59:59+05:30`). */
export const at = (iso: string) => Math.floor(DateTime.fromISO(iso, { setZone: true }).toSeconds());

/** A customer with a seeded wallet statement: `wallet_entries` of them, or one at each of `wallet_entry_times`. */
export async function seedStatement(
  sb: SandboxProcess,
  body: { wallet_entries?: number; wallet_entry_times?: number[] },
): Promise<string> {
  const res = await sb.admin<{ customer_ids: string[] }>('POST', '/seed', body);
  return res.customer_ids.at(-1)!;
}

export type Row = Record<string, string>;

/** The rows of a CSV file, keyed by its header. */
export const csvRows = (path: string) => parse(readFileSync(path, 'utf8'), { columns: true }) as Row[];

// SheetJS, an xlsx reader that shares no code with payctl's own writer (src/output/xlsx.ts): a workbook
// both agree on is one a spreadsheet program reads too.
const { read, utils, SSF } = createRequire(import.meta.url)('xlsx') as typeof XLSX;

export type Cell = { t: string; v: unknown; f?: string; d?: string };
export type Sheet = { freeze: string; filter: string; rows: Cell[][] };

/** A cell as a reader sees it: its value and kind (int, float, str, date, bool, none), number format, and data type. */
function cell(c: XLSX.CellObject | undefined): Cell {
  if (!c || c.t === 'z' || c.v === undefined) return { t: 'none', v: null };
  if (c.t === 'n' && c.z && SSF.is_date(c.z)) {
    const p = SSF.parse_date_code(c.v) as Record<'y' | 'm' | 'd' | 'H' | 'M' | 'S', number>;
    const two = (n: number) => String(n).padStart(2, '0');
    return { t: 'date', v: `${p.y}-${two(p.m)}-${two(p.d)} ${two(p.H)}:${two(p.M)}:${two(p.S)}` };
  }
  const kind = { n: Number.isInteger(c.v) ? 'int' : 'float', s: 'str', b: 'bool' }[c.t as 'n' | 's' | 'b'] ?? c.t;
  return { t: kind, v: c.v, f: String(c.z ?? 'General'), d: c.f ? 'f' : c.t };
}

/** Every sheet of the workbook at `path`: its rows of cells, frozen pane (top-left cell) and filter range. */
export function readXlsx(path: string): Record<string, unknown> & { sheets: string[] } {
  const book = read(readFileSync(path), { cellNF: true, cellFormula: true, bookFiles: true });
  const files = (book as unknown as { files: Record<string, { content: Uint8Array }> }).files;
  const sheetFiles = (book as unknown as { Directory: { sheets: string[] } }).Directory.sheets;
  const out: Record<string, unknown> & { sheets: string[] } = { sheets: book.SheetNames };
  book.SheetNames.forEach((name, i) => {
    const ws = book.Sheets[name]!;
    const range = utils.decode_range(ws['!ref'] ?? 'A1:A1');
    const rows: Cell[][] = [];
    for (let r = 0; r <= range.e.r; r++) {
      const row: Cell[] = [];
      for (let c = 0; c <= range.e.c; c++) row.push(cell(ws[utils.encode_cell({ r, c })] as XLSX.CellObject));
      rows.push(row);
    }
    // SheetJS reads no panes: the frozen one is the <pane state="frozen"> of the sheet's own XML.
    const xml = Buffer.from(files[sheetFiles[i]!.replace(/^\//, '')]!.content).toString('utf8');
    const pane = /<pane\b[^>]*\btopLeftCell="([A-Z]+\d+)"[^>]*\bstate="frozen"/.exec(xml);
    out[name] = { freeze: pane?.[1] ?? '', filter: ws['!autofilter']?.ref ?? '', rows } satisfies Sheet;
  });
  return out;
}

/** Rows of a data sheet as objects keyed by its header. */
export function sheetRows(sheet: Sheet) {
  const [head, ...rows] = sheet.rows;
  const names = head!.map((c) => String(c.v));
  return rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]!])));
}
