// exceljs's streaming writer on its own: its main entry loads the readers, CSV and every format too
// (~0.6 s and ~35 MB more at start), which an export never uses.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type { stream } from 'exceljs';
  const WorkbookWriter: typeof stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

// Two small parts of exceljs that the sheet's rows are written with (xlsx-rows.ts), as exceljs writes them.
declare module 'exceljs/lib/doc/enums.js' {
  const enums: { ValueType: Record<'Null' | 'Number' | 'String' | 'Date' | 'Boolean', number> };
  export default enums;
}
declare module 'exceljs/lib/utils/utils.js' {
  const utils: { xmlEncode(text: string): string; dateToExcel(d: Date, date1904?: boolean): number };
  export default utils;
}
