import { randomBytes } from 'node:crypto';
import { exec } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { FailureError, UsageError } from '../../contract/errors';
import { isLoopback } from '../../client/loopback';
import { signWebhook } from '../../contract/webhooks/signature';
import type { Context } from '../context';
import type { CommandResult } from '../result';
import { firstDifference } from './diagnose';
import { doctorEvent, nonCanonical } from './doctor-events';
import { webhookSecretOf } from './secret';

export interface DoctorOptions {
  url: string;
  countCmd?: string;
  secretFile?: string;
}

/** The service's limit for an answer; slower than SLOW_MS is flagged as close to it. */
const LIMIT_MS = 5_000;
const SLOW_MS = 2_000;

interface Sent {
  status: number | null;
  ms: number;
  error?: string;
}
export interface Check {
  check: string;
  result: 'pass' | 'fail' | 'skip';
  why: string;
}

/** Posts like the service does: its headers, the given bytes and signature (none: header left out). */
async function post(url: string, body: string, eventId: string, signature: string | undefined): Promise<Sent> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Razorpay-Webhook/v1',
    'x-razorpay-event-id': eventId,
  };
  if (signature !== undefined) headers['x-razorpay-signature'] = signature;
  const began = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(LIMIT_MS),
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return { status: res.status, ms: Math.round(performance.now() - began) };
  } catch (err) {
    const e = err as Error;
    const error =
      e.name === 'TimeoutError'
        ? `no answer within ${LIMIT_MS / 1000} s`
        : (codeOf(e) ?? (e.cause as Error | undefined)?.message ?? e.message);
    return { status: null, ms: Math.round(performance.now() - began), error };
  }
}

/** The system error code (ECONNREFUSED) somewhere in a fetch failure's causes. */
function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  if (!e || typeof e !== 'object') return undefined;
  if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
  return codeOf(e.cause) ?? e.errors?.map(codeOf).find(Boolean);
}

const ok = (s: Sent) => s.status !== null && s.status >= 200 && s.status < 300;
const shown = (s: Sent) => (s.status === null ? s.error! : `${s.status} in ${s.ms} ms`);

/** Runs --count-cmd for an entity (its id in PAYCTL_ENTITY_ID and in place of `{}`): how often the handler applied it. */
function countOf(ctx: Context, cmd: string, entityId: string): Promise<number> {
  const command = cmd.replaceAll('{}', entityId);
  const env = { ...ctx.settings.childEnv, PAYCTL_ENTITY_ID: entityId };
  return new Promise((resolve, reject) =>
    exec(command, { env, timeout: 10_000 }, (err, stdout) => {
      const n = Number(String(stdout).trim());
      if (err || !Number.isInteger(n))
        reject(new FailureError(`--count-cmd did not print a count for ${entityId}: ${err?.message ?? stdout}`));
      else resolve(n);
    }),
  );
}

/** Every check, in the order they run: doctor stops at the first that fails. */
const CHECKS = [
  'valid delivery accepted',
  'tampered body rejected',
  'missing signature rejected',
  'wrong signature rejected',
  'key-secret signature rejected',
  'non-canonical JSON accepted',
  'duplicates applied once',
  'events out of order acknowledged',
  'answers quickly',
] as const;
type CheckName = (typeof CHECKS)[number];

/**
 * Why a handler rejected a valid delivery, found by trying each cause the way it happens: the same
 * event in JSON.stringify's bytes, correctly signed (it verifies a re-serialized body); signed with the
 * key secret (it verifies with the API key's); else it does not check with the webhook secret given.
 */
async function whyRejected(
  send: (body: string, eventId: string, signature: string | undefined) => Promise<Sent>,
  rejected: Sent,
  value: { eventId: string; value: Record<string, unknown>; body: string },
  sign: (body: string) => string,
  keySecret: string | undefined,
): Promise<string> {
  const restrung = JSON.stringify(value.value);
  if (ok(await send(restrung, value.eventId, sign(restrung))))
    return (
      `rejected (${shown(rejected)}) the service's bytes, correctly signed, but accepted the same event as ` +
      `JSON.stringify writes it: the handler verifies a re-serialized body (e.g. JSON.stringify(req.body)) ` +
      `instead of the raw bytes; they first differ at ${firstDifference(restrung, value.body)}`
    );
  if (keySecret && ok(await send(value.body, value.eventId, signWebhook(value.body, keySecret))))
    return `rejected (${shown(rejected)}) a correctly signed event but accepted it signed with the API key secret: verify with the webhook secret`;
  return (
    `a correctly signed event got ${shown(rejected)}: does the handler verify the raw body with the webhook ` +
    'secret `payctl webhooks listen --print-secret` shows (the one `sandbox start` printed)?'
  );
}

/**
 * The checks, in order, each pass, fail or skip with why, up to the first that fails: a handler that
 * rejects a valid delivery or accepts a forged one is not judged on what comes after.
 */
async function runChecks(opts: DoctorOptions, ctx: Context, secret: string, keySecret?: string): Promise<Check[]> {
  const url = opts.url;
  const checks: Check[] = [];
  const add = (check: CheckName, pass: boolean | undefined, why: string) => {
    checks.push({ check, result: pass === undefined ? 'skip' : pass ? 'pass' : 'fail', why });
    return pass !== false;
  };
  const latencies: number[] = [];
  const send = async (body: string, eventId: string, signature: string | undefined) => {
    const sent = await post(url, body, eventId, signature);
    latencies.push(sent.ms);
    return sent;
  };
  const now = Math.floor(ctx.nowMs() / 1000);
  const sign = (body: string) => signWebhook(body, secret);

  const valid = doctorEvent('payment.captured', now);
  const first = await send(valid.body, valid.eventId, sign(valid.body));
  if (first.status === null) {
    throw new FailureError(`${url} did not answer (${first.error}): start your handler, then run doctor again`);
  }
  const accepted = ok(first) && first.ms < LIMIT_MS;
  const why = accepted
    ? `answered ${shown(first)}`
    : ok(first)
      ? `answered ${shown(first)}, after the service gives up (${LIMIT_MS / 1000} s)`
      : await whyRejected(send, first, valid, sign, keySecret);
  if (!add('valid delivery accepted', accepted, why)) return checks;

  const tampered = valid.body.replace('"amount":50000', '"amount":5000000');
  const forged = await send(tampered, valid.eventId, sign(valid.body));
  const tamperWhy = ok(forged)
    ? `a body changed after signing was accepted (${shown(forged)})`
    : `answered ${shown(forged)}`;
  if (!add('tampered body rejected', !ok(forged), tamperWhy)) return checks;
  const unsigned = doctorEvent('payment.captured', now);
  const missing = await send(unsigned.body, unsigned.eventId, undefined);
  const missingWhy = ok(missing) ? `an event without X-Razorpay-Signature was accepted` : `answered ${shown(missing)}`;
  if (!add('missing signature rejected', !ok(missing), missingWhy)) return checks;
  const wrong = await send(
    unsigned.body,
    unsigned.eventId,
    signWebhook(unsigned.body, randomBytes(16).toString('hex')),
  );
  const wrongWhy = ok(wrong) ? 'an event signed with another secret was accepted' : `answered ${shown(wrong)}`;
  if (!add('wrong signature rejected', !ok(wrong), wrongWhy)) return checks;
  if (keySecret) {
    const byKey = await send(unsigned.body, unsigned.eventId, signWebhook(unsigned.body, keySecret));
    const keyWhy = ok(byKey)
      ? 'an event signed with the API key secret was accepted: verify with the webhook secret'
      : `answered ${shown(byKey)}`;
    if (!add('key-secret signature rejected', !ok(byKey), keyWhy)) return checks;
  } else add('key-secret signature rejected', undefined, 'no key secret (no profile or --sandbox) to sign with');

  const other = doctorEvent('payment.captured', now);
  const otherBytes = nonCanonical(other.value);
  const noncanon = await send(otherBytes, other.eventId, sign(otherBytes));
  const canonWhy = ok(noncanon)
    ? `the same event with other spacing, key order and \\u escapes, correctly signed: ${shown(noncanon)}`
    : `rejected (${shown(noncanon)}) the same event in other bytes, correctly signed: the handler checks a re-encoded body instead of the raw bytes`;
  if (!add('non-canonical JSON accepted', ok(noncanon), canonWhy)) return checks;

  const dup = doctorEvent('payment.captured', now);
  const repeats = [];
  for (let i = 0; i < 3; i++) repeats.push(await send(dup.body, dup.eventId, sign(dup.body)));
  const renamed = doctorEvent('payment.captured', now, dup.paymentId);
  repeats.push(await send(dup.body, renamed.eventId, sign(dup.body)));
  if (!repeats.every(ok)) {
    const acks = repeats.map(shown).join(', ');
    add('duplicates applied once', false, `a repeated delivery was not acknowledged (${acks}): the service retries it`);
    return checks;
  }
  if (!opts.countCmd)
    add(
      'duplicates applied once',
      undefined,
      'all acknowledged; give --count-cmd CMD to judge how often they were applied',
    );
  else {
    await sleep(300);
    const n = await countOf(ctx, opts.countCmd, dup.paymentId);
    const said = `the same event 3 times and again under a new event id: applied ${n === 1 ? 'once' : `${n} times (de-duplicate by event id and by the entity's state)`}`;
    if (!add('duplicates applied once', n === 1, said)) return checks;
  }

  const newer = doctorEvent('payment.captured', now);
  const older = doctorEvent('payment.authorized', now - 5, newer.paymentId);
  const late = [
    await send(newer.body, newer.eventId, sign(newer.body)),
    await send(older.body, older.eventId, sign(older.body)),
  ];
  const lateWhy = late.every(ok)
    ? 'payment.captured, then the older payment.authorized: both acknowledged'
    : `payment.captured then the older payment.authorized got ${late.map(shown).join(', ')}: an unacknowledged event is retried for 24 h`;
  if (!add('events out of order acknowledged', late.every(ok), lateWhy)) return checks;

  const slowest = Math.max(...latencies);
  add(
    'answers quickly',
    slowest < SLOW_MS,
    `slowest answer ${slowest} ms${slowest < SLOW_MS ? '' : ` (the service gives up at ${LIMIT_MS / 1000} s): acknowledge first, then do the work`}`,
  );
  return checks;
}

/** A scored run of the checks against the user's own handler: exit non-zero when any fails. */
export async function doctor(opts: DoctorOptions, ctx: Context): Promise<CommandResult> {
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    throw new UsageError(`--url is not a URL: ${JSON.stringify(opts.url)}`);
  }
  if (!isLoopback(url.origin)) throw new UsageError('--url must be on this machine (localhost, 127.0.0.1, [::1])');
  const secret = await webhookSecretOf(ctx, opts.secretFile);
  const keySecret = await ctx.credentials().then(
    (c) => c.keySecret,
    () => undefined,
  );
  const checks = await runChecks({ ...opts, url: url.href }, ctx, secret, keySecret);
  const failed = checks.filter((c) => c.result === 'fail');
  const judged = checks.filter((c) => c.result !== 'skip').length;
  const notRun = CHECKS.length - checks.length;
  const stopped = notRun ? `; stopped there, ${notRun} later check${notRun === 1 ? '' : 's'} not run` : '';
  const score = `score ${judged - failed.length}/${judged}${failed.length ? `: ${failed.length} failed${stopped}` : ''}`;
  const finish = () => {
    if (failed.length) throw new FailureError(`${score} (${failed.map((c) => c.check).join('; ')})`);
  };
  if (ctx.settings.format !== 'table')
    return { type: 'many', kind: 'generic', items: checks, after: () => (failed.length ? undefined : score), finish };
  for (const c of checks) ctx.notice(`${c.result.toUpperCase().padEnd(4)}  ${c.check.padEnd(34)} ${c.why}`);
  finish();
  return { type: 'done', message: score };
}
