import { StatusLine } from './status-line';

/** `1,234 rows · 13 pages · 2/5 customers` redrawn during a walk of every page. */
export class ExportProgress {
  private rows = 0;
  private pages = 0;
  private customersDone = 0;
  private readonly line: StatusLine;

  constructor(
    out: NodeJS.WritableStream,
    private readonly customers = 0,
  ) {
    this.line = new StatusLine(out, true);
  }

  page() {
    this.pages++;
    this.draw();
  }

  row(n = 1) {
    this.rows += n;
    this.draw();
  }

  customerDone() {
    this.customersDone++;
    this.draw(true);
  }

  clear() {
    this.line.clear();
  }

  private draw(force = false) {
    this.line.draw(() => exportProgressLine(this.rows, this.pages, this.customersDone, this.customers), force);
  }
}

export function exportProgressLine(rows: number, pages: number, customersDone: number, customers: number): string {
  const parts = [`${rows.toLocaleString('en-US')} rows`, `${pages} page${pages === 1 ? '' : 's'}`];
  if (customers > 1) parts.push(`${customersDone}/${customers} customers`);
  return parts.join(' · ');
}
