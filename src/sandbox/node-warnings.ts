/**
 * Runs `use` (synchronously) with Node's "experimental feature" line for one feature held back: that
 * line is for developers of Node, not for payctl's users. Every other warning passes through.
 */
export function withoutExperimentalWarning<T>(feature: RegExp, use: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (feature.test(text)) return;
    return (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return use();
  } finally {
    process.emitWarning = emitWarning;
  }
}
