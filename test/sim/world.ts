/**
 * The simulated clock and its event queue. Nothing waits in real time: when everything payctl
 * started is blocked on the simulation, the clock jumps to the next event. Events due at the same
 * instant run in the order they were scheduled, so a seed always gives the same interleaving.
 */
interface Event {
  at: number;
  seq: number;
  fn: () => void;
}

/** Real I/O still outstanding (an input file being read): the clock must not move under it. */
const realIoPending = () => process.getActiveResourcesInfo().some((r) => r === 'FSReqCallback' || r === 'FSReqPromise');

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class World {
  /** Simulated milliseconds since the epoch; starts at a fixed instant. */
  now = Date.UTC(2026, 10, 25, 4, 0, 0);
  steps = 0;
  private seq = 0;
  private queue: Event[] = [];
  /** Called before every step: a scenario kills a process here, or rewrites a file. */
  onStep: (() => void) | undefined;

  at(delayMs: number, fn: () => void): void {
    const event = { at: this.now + Math.max(0, Math.round(delayMs)), seq: this.seq++, fn };
    // Kept sorted, ties in the order scheduled; the queue stays short, so a scan from the end is enough.
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1]!.at > event.at) i--;
    this.queue.splice(i, 0, event);
  }

  sleep = (ms: number): Promise<void> => new Promise((resolve) => this.at(ms, resolve));

  /** Lets every microtask (and any real file read payctl started) run to where it waits on the simulation. */
  async settle(): Promise<void> {
    await turn();
    const until = performance.now() + 60_000;
    while (realIoPending() && performance.now() < until) await turn();
  }

  /**
   * Runs events until `done()` holds (after settling), or the queue is empty. Returns false when
   * the step budget ran out, which a scenario reports as a hang.
   */
  async runUntil(done: () => boolean, maxSteps = 20_000): Promise<boolean> {
    for (let n = 0; n < maxSteps; n++) {
      await this.settle();
      if (done()) return true;
      const event = this.queue.shift();
      if (!event) return done();
      this.now = Math.max(this.now, event.at);
      this.steps++;
      this.onStep?.();
      event.fn();
    }
    return false;
  }

  /**
   * Runs until every task has ended; a task that throws is reported through `harm` (a harness fault,
   * not a money one). Returns false when the step budget ran out first, which a scenario reports as a hang.
   */
  async runAll(tasks: Promise<unknown>[], harm: (detail: string) => void, maxSteps = 200_000): Promise<boolean> {
    let finished = 0;
    for (const t of tasks)
      t.then(
        () => finished++,
        (err: unknown) => {
          finished++;
          harm(String((err as Error)?.stack ?? err));
        },
      );
    return this.runUntil(() => finished === tasks.length, maxSteps);
  }

  /** Runs what is left (requests still on their way land) without any process waiting on them. */
  async drain(maxSteps = 20_000): Promise<void> {
    await this.runUntil(() => false, maxSteps);
  }

  pending(): number {
    return this.queue.length;
  }
}
