// exceljs's streaming writer on its own: its main entry loads the readers, CSV and every format too
// (~0.6 s and ~35 MB more at start), which an export never uses.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type { stream } from 'exceljs';
  const WorkbookWriter: typeof stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}
