import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { filteredIO } from '../../../src/cli/filtered';
import type { IO } from '../../../src/commands/context';
import { knownSecret, redact, redactChunk } from '../../../src/config/secrets';

describe('redaction of the secrets in use', () => {
  const id = 'rzp_test_Unit0001';
  const secret = 'sk_unit_7f3a9c1e2d';
  const pair = `${id}:${secret}`;
  knownSecret(id, secret);

  it('every form that can travel: the secret, id:secret, and its Basic base64 (padded or not, URL-safe)', () => {
    const b64 = Buffer.from(pair).toString('base64');
    for (const form of [secret, pair, b64, b64.replace(/=+$/, ''), Buffer.from(pair).toString('base64url')])
      expect(redact(`before ${form} after`)).toBe('before [redacted] after');
    expect(redact(`Authorization: Basic ${b64}`)).toBe('Authorization: Basic [redacted]');
    expect(redact(`the key ${id} is fine`)).toBe(`the key ${id} is fine`);
  });

  it('a short or empty secret redacts nothing else', () => {
    knownSecret('id', 'ab');
    knownSecret(undefined, '');
    expect(redact('ab cd ab')).toBe('ab cd ab');
  });

  it('a stream redacts what is written, text or bytes, and passes the rest through', async () => {
    const sink = new PassThrough();
    const out = filteredIO({ stdout: sink } as unknown as IO, () => redactChunk).stdout;
    const chunks: Buffer[] = [];
    sink.on('data', (c: Buffer) => chunks.push(c));
    out.write(`a ${secret}\n`);
    out.write(Buffer.from(`b ${pair}\n`));
    out.write(Buffer.from([0, 1, 2, 255]));
    out.end();
    await new Promise((r) => sink.on('end', r));
    const all = Buffer.concat(chunks);
    expect(all.subarray(0, -4).toString()).toBe('a [redacted]\nb [redacted]\n');
    expect([...all.subarray(-4)]).toEqual([0, 1, 2, 255]);
  });
});
