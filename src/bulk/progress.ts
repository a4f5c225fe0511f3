import { StatusLine } from '../output/status-line';

/** done/total, rate and time left on one redrawn line; the last row is always drawn. */
export class Progress {
  private done = 0;
  private readonly started: number;
  private readonly line: StatusLine;

  /** `now`: the clock the rate is measured by (a simulation passes its own). */
  constructor(
    out: NodeJS.WritableStream,
    private readonly total: number,
    enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.line = new StatusLine(out, enabled);
    this.started = now();
  }

  tick() {
    this.done++;
    this.line.draw(
      () => progressLine(this.done, this.total, (this.now() - this.started) / 1000),
      this.done >= this.total,
    );
  }

  clear() {
    this.line.clear();
  }
}

export function progressLine(done: number, total: number, seconds: number, width = 24): string {
  const share = total ? done / total : 1;
  const filled = Math.round(share * width);
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : undefined;
  const etaText =
    eta === undefined ? '--' : eta >= 60 ? `${Math.floor(eta / 60)}m${String(eta % 60).padStart(2, '0')}s` : `${eta}s`;
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  return `${bar} ${done}/${total} ${rate.toFixed(rate < 10 ? 1 : 0)}/s ETA ${etaText}`;
}
