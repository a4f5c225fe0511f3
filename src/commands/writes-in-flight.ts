import { checkCommand } from './check';

interface Write {
  path: string;
  body: unknown;
}

/**
 * Writes (POSTs) of a single command that are on the wire. If the user interrupts while one is, the
 * answer that would have said whether it was applied is given up: say so, with the command to check.
 */
export class WritesInFlight {
  private readonly open = new Set<Write>();

  start(path: string, body: unknown): () => void {
    const w = { path, body };
    this.open.add(w);
    return () => this.open.delete(w);
  }

  onInterrupt(stderr: NodeJS.WritableStream) {
    for (const w of this.open)
      stderr.write(
        `payctl: interrupted after the request was sent: it may have been applied; ` +
          `check with \`${checkCommand('POST', w.path, w.body)}\` before trying again\n`,
      );
  }
}
