import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examples, expectShown } from './examples';
import { BIN, assertNoSecret, sandboxForFile } from './harness';

/**
 * Every `payctl` line of docs/support.md runs against a sandbox, in the guide's order, as one story: its
 * placeholder ids are one customer's payment (by the guide's e-mail and phone), its order and a refund of
 * it. The guide's refund asks at a terminal; here, without one, it is given --yes.
 */

const GUIDE = readFileSync(new URL('../../docs/support.md', import.meta.url), 'utf8');
const SKIP = /^payctl sandbox start\b/;

/** The guide's example lines, but for starting a sandbox (the test file has its own). */
const guideExamples = () => examples(GUIDE).filter((line) => !SKIP.test(line));

const sb = sandboxForFile();
let work: string;
let env: NodeJS.ProcessEnv;
const ids: Record<string, string> = {};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'payctl-guide-'));
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'payctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
  env = { ...sb.env, PATH: `${join(work, 'bin')}:${process.env.PATH}`, TERM: 'dumb' };
  const order = await sb.api<{ id: string }>('POST', '/orders', {
    amount: 250000,
    currency: 'INR',
    payment_capture: true,
  });
  const pay = await sb.admin<{ id: string }>('POST', '/checkout', {
    order_id: order.body.id,
    email: 'priya@example.com',
    contact: '+919876543210',
  });
  const refund = await sb.api<{ id: string }>('POST', `/payments/${pay.id}/refund`, { amount: 10000 });
  Object.assign(ids, {
    pay_29QQoUBi66xm2f: pay.id,
    order_DBJOWzybf0sJbb: order.body.id,
    rfnd_FP8QHiV938haTz: refund.body.id,
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function shell(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; ${line}`], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      assertNoSecret(stdout + stderr, `the guide's example ${line}`);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the support guide runs', () => {
  it('tells the lookup-and-refund story with the commands of each step', () => {
    const steps = [
      'payctl payments list --email',
      'payctl payments list --contact',
      'payctl orders get',
      'payctl orders payments',
      'payctl payments refund',
      'payctl refunds list --payment',
      'payctl payments get --input',
      'payctl api GET /no/such/thing',
    ];
    expectShown(GUIDE, steps, 'start');
  });

  it('every command of the guide, in order, against one customer', async () => {
    for (const example of guideExamples()) {
      let line = example;
      for (const [placeholder, id] of Object.entries(ids)) line = line.split(placeholder).join(id);
      if (/^payctl payments refund /.test(line)) line += ' --yes';
      const res = await shell(line);
      if (line === 'payctl api GET /no/such/thing') {
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(/the service has no endpoint GET \/no\/such\/thing/);
        continue;
      }
      expect(res.code, `${line}\n${res.stderr}`).toBe(0);
      const shows = /--email|--contact/.test(line) ? !line.includes('>') : line.includes('--input priya.csv');
      if (shows) expect(res.stdout, line).toContain(ids.pay_29QQoUBi66xm2f);
      if (line.startsWith('payctl refunds list --payment')) expect(res.stdout.match(/rfnd_\w{14}/g)).toHaveLength(2);
    }
  });
});
