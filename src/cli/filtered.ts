import type { IO } from '../commands/context';

export type ChunkFilter = (chunk: unknown) => unknown;

/** The stream with every chunk written through `filter()` (when there is one yet); the rest is the stream's own. */
export function filteredWritable<S extends NodeJS.WritableStream>(stream: S, filter: () => ChunkFilter | undefined): S {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write')
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(filter()?.(chunk) ?? chunk, ...rest);
      if (prop === 'end')
        return (chunk?: unknown, ...rest: unknown[]) =>
          (target.end as (...a: unknown[]) => unknown)(
            typeof chunk === 'function' || chunk === undefined ? chunk : (filter()?.(chunk) ?? chunk),
            ...rest,
          );
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * The streams with stdout and stderr filtered (each made when first used, like the process's own). The
 * filter is looked up at each write: it is set once a command runs, so `--help` loads nothing for it.
 */
export function filteredIO(io: IO, filter: () => ChunkFilter | undefined): IO {
  let stdout: NodeJS.WritableStream | undefined;
  let stderr: NodeJS.WritableStream | undefined;
  return {
    get stdout() {
      return (stdout ??= filteredWritable(io.stdout, filter));
    },
    get stderr() {
      return (stderr ??= filteredWritable(io.stderr, filter));
    },
    get stdin() {
      return io.stdin;
    },
    get stdinIsTTY() {
      return io.stdinIsTTY;
    },
    get stdoutIsTTY() {
      return io.stdoutIsTTY;
    },
    get stderrIsTTY() {
      return io.stderrIsTTY;
    },
  };
}
