import { execFileSync } from 'node:child_process';

/** The workbook as Debian's python3-openpyxl reads it: each cell's value and Python type. */
export function readXlsx(path: string) {
  const script = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
def cell(c):
    v = c.value
    if isinstance(v, datetime.datetime): return {"t": "date", "v": v.strftime("%Y-%m-%d %H:%M:%S")}
    return {"t": type(v).__name__, "v": v, "f": c.number_format, "d": c.data_type}
out = {"sheets": wb.sheetnames}
for ws in wb.worksheets:
    out[ws.title] = {"freeze": ws.freeze_panes, "filter": ws.auto_filter.ref, "rows": [[cell(c) for c in r] for r in ws.iter_rows()]}
print(json.dumps(out, default=str))
`;
  return JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', script, path], { encoding: 'utf8', maxBuffer: 1 << 28 }),
  ) as Record<string, unknown> & {
    sheets: string[];
  };
}

export type Sheet = {
  freeze: string;
  filter: string;
  rows: Array<Array<{ t: string; v: unknown; f?: string; d?: string }>>;
};

/** Rows of a data sheet as objects keyed by its header. */
export function sheetRows(sheet: Sheet) {
  const [head, ...rows] = sheet.rows;
  const names = head!.map((c) => String(c.v));
  return rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]!])));
}
