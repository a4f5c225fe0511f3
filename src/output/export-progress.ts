/** `1,234 rows · 13 pages · 2/5 customers` redrawn on a terminal's stderr during a walk; silent otherwise. */
export class ExportProgress {
  private rows = 0;
  private pages = 0;
  private customersDone = 0;
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly enabled: boolean,
    private readonly customers = 0,
  ) {}

  page() {
    this.pages++;
    this.draw(false);
  }

  row() {
    this.rows++;
    this.draw(false);
  }

  customerDone() {
    this.customersDone++;
    this.draw(true);
  }

  clear() {
    if (this.enabled && this.lastDraw) this.out.write('\r\x1b[K');
    this.lastDraw = 0;
  }

  private draw(force: boolean) {
    const now = Date.now();
    if (!this.enabled || (!force && now - this.lastDraw < 100)) return;
    this.lastDraw = now;
    this.out.write(`\r\x1b[K${exportProgressLine(this.rows, this.pages, this.customersDone, this.customers)}`);
  }
}

export function exportProgressLine(rows: number, pages: number, customersDone: number, customers: number): string {
  const parts = [`${rows.toLocaleString('en-US')} rows`, `${pages} page${pages === 1 ? '' : 's'}`];
  if (customers > 1) parts.push(`${customersDone}/${customers} customers`);
  return parts.join(' · ');
}
