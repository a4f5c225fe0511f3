/**
 * One line redrawn in place on a terminal's stderr (carriage return, erase line), at most every
 * 100 ms unless forced, so a fast loop does not spend its time writing to the terminal. Silent when
 * not enabled (stderr is not a terminal).
 */
export class StatusLine {
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly enabled: boolean,
  ) {}

  draw(text: () => string, force = false) {
    const now = Date.now();
    if (!this.enabled || (!force && now - this.lastDraw < 100)) return;
    this.lastDraw = now;
    this.out.write(`\r\x1b[K${text()}`);
  }

  /** Erases the line (if anything was drawn) so the next output starts on a clean line. */
  clear() {
    if (this.enabled && this.lastDraw) this.out.write('\r\x1b[K');
    this.lastDraw = 0;
  }
}
