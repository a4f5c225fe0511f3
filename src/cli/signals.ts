import { Writable } from 'node:stream';

/**
 * stdout as payctl writes to it: once a write fails (EPIPE from `| head`, ENOSPC from a full disk)
 * `onBroken` is told once and later writes are dropped at once, so a run can still drain and record
 * what it has in flight instead of waiting on a stream that will never take another byte.
 */
export function guardedStdout(
  out: NodeJS.WriteStream,
  onBroken: (err: NodeJS.ErrnoException) => void,
): NodeJS.WritableStream {
  let broken = false;
  const fail = (err: NodeJS.ErrnoException) => {
    if (broken) return;
    broken = true;
    onBroken(err);
  };
  out.on('error', fail);
  const guard = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (broken) return done();
      out.write(chunk, (err) => {
        if (err) fail(err as NodeJS.ErrnoException);
        done();
      });
    },
    final(done) {
      done();
    },
  });
  Object.defineProperty(guard, 'columns', { get: () => out.columns });
  Object.defineProperty(guard, 'isTTY', { get: () => out.isTTY });
  return guard;
}
