/** One redrawn line on a terminal's stderr: done/total, rate and time left. Silent when not a TTY. */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly total: number,
    private readonly enabled: boolean,
  ) {}

  tick() {
    this.done++;
    const now = Date.now();
    if (!this.enabled || (now - this.lastDraw < 100 && this.done < this.total)) return;
    this.lastDraw = now;
    this.out.write(`\r\x1b[K${progressLine(this.done, this.total, (now - this.started) / 1000)}`);
  }

  clear() {
    if (this.enabled && this.lastDraw) this.out.write('\r\x1b[K');
  }
}

export function progressLine(done: number, total: number, seconds: number, width = 24): string {
  const share = total ? done / total : 1;
  const filled = Math.round(share * width);
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
  const etaText = eta === undefined ? '--' : eta >= 60 ? `${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s` : `${eta}s`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${rate.toFixed(rate < 10 ? 1 : 0)}/s ETA ${etaText}`;
}
