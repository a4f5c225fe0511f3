import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { EarlierSend } from '../../client/refund';
import { isJsonObject, parseJson } from '../../contract/values/json';

/**
 * When each single refund left, by its key: what a rerun with --idempotency-key (the CLI's, or an
 * assistant's through the same command) reads to tell whether that first request may still arrive
 * (client/refund.ts resendWaitMs). One line per send in the state directory, 0600; written durably
 * before the request goes.
 */
const file = (state: string) => join(state, 'refund-sends.ndjson');

export function recordSend(state: string, key: string, paymentId: string, send: EarlierSend): void {
  mkdirSync(state, { recursive: true, mode: 0o700 });
  const line = `${JSON.stringify({ key, payment_id: paymentId, at: new Date(send.sentAtMs).toISOString(), deadline_ms: send.deadlineMs })}\n`;
  const fd = openSync(file(state), 'a', 0o600);
  try {
    writeSync(fd, line);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The last recorded send of `key`, if any (a damaged line is skipped: it tells nothing). */
export function lastSend(state: string, key: string): EarlierSend | undefined {
  let text: string;
  try {
    text = readFileSync(file(state), 'utf8');
  } catch {
    return undefined;
  }
  let last: EarlierSend | undefined;
  for (const line of text.split('\n')) {
    if (!line.includes(key)) continue;
    const parsed = parseJson(line);
    if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.key !== key) continue;
    const { at, deadline_ms } = parsed.value;
    const sentAtMs = typeof at === 'string' ? Date.parse(at) : NaN;
    if (Number.isFinite(sentAtMs) && typeof deadline_ms === 'number') last = { sentAtMs, deadlineMs: deadline_ms };
  }
  return last;
}
