import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDeliveries, replayEvent, triggerEvent } from '../../../../src/commands/webhooks/handlers';
import { verifySignature } from '../../../../src/commands/webhooks/verify';
import { listen } from '../../../../src/commands/webhooks/listen';
import { UsageError } from '../../../../src/contract/errors';
import { encodeLikeService, signWebhook } from '../../../../src/contract/webhooks/signature';
import { fakeContext } from '../fake-context';

const attempt = {
  seq: 7,
  webhook_id: 'wh_1',
  url: 'http://127.0.0.1:3000/webhooks',
  event_id: 'evt_DBJOWzybf0sJbb',
  event: 'payment.captured',
  attempt: 1,
  at: 1_795_000_000,
  status: 200,
  latency_ms: 4,
  error: null,
  response: 'ok',
  state: 'delivered',
};

describe('webhooks handlers', () => {
  it('trigger: an override that does not apply is refused before anything is sent', async () => {
    const f = fakeContext();
    const refused = triggerEvent({ event: 'payment.captured', set: ['plan.amount=100'] }, f.ctx);
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/plan\.amount does not apply to payment\.captured/);
    expect(f.sent).toHaveLength(0);
  });

  it('trigger: sends the event and overrides, prints the events it caused', async () => {
    const events = [{ id: 'evt_A', event: 'payment.captured' }];
    const f = fakeContext({
      routes: {
        'POST /_sandbox/webhooks/trigger': { body: { event: 'payment.captured', payment_id: 'pay_1', events } },
      },
    });
    const result = await triggerEvent({ event: 'payment.captured', set: ['order.amount=700'] }, f.ctx);
    expect(f.sent[0]!.body).toEqual({ event: 'payment.captured', set: ['order.amount=700'] });
    expect(result).toMatchObject({ type: 'lines', lines: ['evt_A  payment.captured'] });
  });

  it('deliveries: every attempt with an ISO time; a disabled webhook said on stderr', async () => {
    const webhooks = [
      { id: 'wh_1', url: attempt.url, disabled_at: 1, disabled_reason: 'deliveries failed for 24 hours' },
    ];
    const f = fakeContext({
      routes: { 'POST /_sandbox/webhooks/deliveries': { body: { items: [attempt], webhooks } } },
    });
    const result = await listDeliveries({}, f.ctx);
    expect(result).toMatchObject({
      type: 'many',
      items: [{ at: new Date(attempt.at * 1000).toISOString(), status: 200 }],
    });
    expect(f.stderr()).toMatch(
      /wh_1 .* is disabled: deliveries failed for 24 hours; enable it: payctl webhooks enable wh_1/,
    );
  });

  it('replay: refuses what is not an event id', async () => {
    const f = fakeContext();
    await expect(replayEvent({ eventId: 'pay_1', newId: false }, f.ctx)).rejects.toBeInstanceOf(UsageError);
    expect(f.sent).toHaveLength(0);
  });

  it("listen: --forward-to must be on this machine; --print-secret prints the sandbox's secret", async () => {
    const f = fakeContext({ routes: { 'GET /_sandbox/webhooks/secret': { body: { secret: 'whsec_of_sandbox' } } } });
    await expect(listen({ forwardTo: 'https://example.com/hooks', printSecret: false }, f.ctx)).rejects.toThrow(
      /on this machine/,
    );
    expect(f.sent).toHaveLength(0);
    const printed = await listen({ printSecret: true }, f.ctx);
    expect(printed).toMatchObject({ type: 'lines', lines: ['PAYCTL_WEBHOOK_SECRET=whsec_of_sandbox'] });
  });

  it.each(['', '  \n'])('an empty or blank secret (%j) is refused, never printed or checked with', async (blank) => {
    const f = fakeContext({ routes: { 'GET /_sandbox/webhooks/secret': { body: { secret: blank } } } });
    await expect(listen({ printSecret: true }, f.ctx)).rejects.toThrow(/cannot be empty or white space/);
    const body = encodeLikeService({ event: 'refund.processed' });
    const file = join(f.home, 'body.json');
    writeFileSync(file, body);
    const secretFile = join(f.home, 'secret');
    writeFileSync(secretFile, blank);
    const signature = signWebhook(body, blank);
    const fromFile = verifySignature({ signature, file, secretFile }, f.ctx);
    await expect(fromFile).rejects.toBeInstanceOf(UsageError);
    await expect(fromFile).rejects.toThrow(/--secret-file .* is empty/);
    const g = fakeContext({ settings: { webhookSecretEnv: ' \t ' } });
    await expect(verifySignature({ signature, file }, g.ctx)).rejects.toThrow(/PAYCTL_WEBHOOK_SECRET is empty/);
  });

  it('verify: the secret from PAYCTL_WEBHOOK_SECRET, the body from a file; a mismatch names its cause', async () => {
    const f = fakeContext({ settings: { webhookSecretEnv: 'whsec_unit' } });
    const body = encodeLikeService({ event: 'refund.processed', note: '1/2' });
    const file = join(f.home, 'body.json');
    writeFileSync(file, body);
    const ok = await verifySignature({ signature: signWebhook(body, 'whsec_unit'), file }, f.ctx);
    expect(ok).toMatchObject({ type: 'done', message: expect.stringMatching(/^signature OK/) });
    writeFileSync(file, JSON.stringify(JSON.parse(body)));
    await expect(verifySignature({ signature: signWebhook(body, 'whsec_unit'), file }, f.ctx)).rejects.toThrow(
      /re-serialized/,
    );
  });
});
