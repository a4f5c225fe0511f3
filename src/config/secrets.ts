/**
 * The one place that knows every key secret in use in this process, whatever it came from (a profile
 * file, PAYCTL_KEY_SECRET, a secret command's answer, the embedded sandbox), in every form it can travel
 * in: the secret, `id:secret`, and the Basic base64 of `id:secret` (padded or not, standard or URL-safe).
 * Text leaving payctl (stdout, stderr, tool results, the audit log) passes through `redact`; the process's
 * stdout and stderr through `redactChunk` once a command runs.
 */
interface Known {
  forms: Set<string>;
  /** Longest first: `id:secret` is replaced whole rather than leaving the id beside a redacted secret. */
  ordered: string[];
  bytes: Buffer[];
}

const none = (): Known => ({ forms: new Set(), ordered: [], bytes: [] });
const processWide = none();
/** Set once an in-process run (tests) asks for secrets of its own; a process never loads async_hooks for it. */
let perRun: import('node:async_hooks').AsyncLocalStorage<Known> | undefined;
const known = () => perRun?.getStore() ?? processWide;

/** Runs `fn` knowing no secret but those it meets itself: one of several runs in one process. */
export function withOwnSecrets<T>(fn: () => T): T {
  perRun ??= new (process.getBuiltinModule('node:async_hooks').AsyncLocalStorage)();
  return perRun.run(none(), fn);
}

export const REDACTED = '[redacted]';

const encodings = (text: string) => {
  const b64 = Buffer.from(text).toString('base64');
  return [text, b64, b64.replace(/=+$/, ''), Buffer.from(text).toString('base64url'), encodeURIComponent(text)];
};

/** Remembers a secret in use (a too-short one would redact ordinary text, and is never a real key secret). */
export function knownSecret(keyId: string | undefined, secret: string | undefined): void {
  const k = known();
  if (!secret || secret.length < 6 || k.forms.has(secret)) return;
  for (const form of [...encodings(secret), ...(keyId ? encodings(`${keyId}:${secret}`) : [])])
    if (form.length >= 6) k.forms.add(form);
  k.ordered = [...k.forms].sort((a, b) => b.length - a.length);
  k.bytes = k.ordered.map((f) => Buffer.from(f));
}

export function redact(text: string): string {
  let out = text;
  for (const form of known().ordered) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Strings anywhere in a value, redacted (for records written as JSON). */
export function redactDeep<T>(value: T): T {
  if (!known().ordered.length) return value;
  return JSON.parse(redact(JSON.stringify(value))) as T;
}

/** A chunk on its way to a stream, redacted: text, or bytes (rewritten only when they do hold a secret). */
export function redactChunk(chunk: unknown): unknown {
  const { ordered, bytes } = known();
  if (!ordered.length) return chunk;
  if (typeof chunk === 'string') return redact(chunk);
  if (chunk instanceof Uint8Array) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Binary output (a workbook) is rewritten only when it does hold a secret.
    return bytes.some((b) => buf.includes(b)) ? Buffer.from(redact(buf.toString('utf8'))) : chunk;
  }
  return chunk;
}
