import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertNoSecret, run, sandboxForFile } from './harness';

/**
 * Every `payctl` line of every ```sh block in README.md runs against a sandbox, so an example cannot
 * rot. Blocks are read generically: a new example is picked up and must run. Placeholder ids are
 * swapped for ids the sandbox issued, in the state the command needs (an authorized payment to
 * capture, a captured one to refund, a customer with a wallet balance...); files an example reads are
 * written first. What cannot run here is listed, with why, as a skipped test.
 */

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

const SKIP: Array<[RegExp, string]> = [
  [/^npm /, 'installs, builds or tests payctl itself: the suite runs on that build'],
  [
    /^payctl sandbox start\b/,
    'serves until stopped, on a fixed port; every e2e test starts the same server on a free port (harness.ts)',
  ],
  [
    /^payctl completion zsh > "\$\{fpath\[1\]\}/,
    "writes into this machine's zsh fpath; completion.test.ts installs it the same way into a test fpath",
  ],
  [
    /^payctl (-p \S+ )?mcp(?! log)\b/,
    'serves an assistant over stdio until it disconnects; mcp.test.ts drives it with the SDK client',
  ],
  [
    /^payctl payments (refund|capture)$/,
    'the guided flow needs a person at a terminal: guided.test.ts drives it on a pseudo-terminal',
  ],
];

/** Example lines: shell comments and `\` continuations handled, trailing `# notes` dropped. */
function examples(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (line && !line.startsWith('#')) out.push(line);
    }
  }
  return out;
}

const all = examples(README);
const skipReason = (line: string) => SKIP.find(([re]) => re.test(line))?.[1];

const sb = sandboxForFile();
let work: string;
let env: NodeJS.ProcessEnv;
const files = new Set<string>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'payctl-readme-'));
  mkdirSync(join(work, 'bin'));
  mkdirSync(join(work, 'home'));
  writeFileSync(join(work, 'bin', 'payctl'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
  env = {
    PATH: `${join(work, 'bin')}:${process.env.PATH}`,
    HOME: join(work, 'home'),
    PAYCTL_HOME: sb.home,
    PAYCTL_TZ: 'Asia/Kolkata',
    // What README's profile examples read the secret from (`printf %s "$KEY_SECRET" | …`, or the
    // environment when there is no terminal to ask on).
    KEY_SECRET: sb.keySecret,
    KEY_ID: sb.keyId,
    BASE_URL: sb.baseUrl,
    PAYCTL_KEY_SECRET: sb.keySecret,
    TERM: 'dumb',
  };
  // As `payctl sandbox start` would leave things: a default "sandbox" profile.
  const add = await run(
    ['profile', 'add', 'sandbox', '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--default', '--key-secret-stdin'],
    { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret },
  );
  expect(add.code, add.stderr).toBe(0);
  const prod = await run(
    ['profile', 'add', 'prod', '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--live', '--key-secret-stdin'],
    { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret },
  );
  expect(prod.code, prod.stderr).toBe(0);
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
});

// Fresh resources, in the state an example needs, made through the service's own API.
async function authorized(): Promise<string> {
  return (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids[0]!;
}
async function captured(): Promise<string> {
  const id = await authorized();
  expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
  return id;
}
async function created<T = { id: string }>(path: string, body: unknown): Promise<T> {
  const res = await sb.api<T>('POST', path, body);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
async function customerWithBalance(): Promise<string> {
  const c = await sb.admin<{ id: string }>('POST', '/customers', {
    contact: '+919876543210',
    email: 'a@example.com',
    name: 'Readme',
  });
  await captured(); // the merchant balance the wallet credit comes from
  await created('/transfers', { customer_id: c.id, amount: 50000, currency: 'INR' });
  return c.id;
}

/** Swaps README's placeholder ids for sandbox ones, per id kind and per command. */
async function substitute(line: string): Promise<string> {
  const ids = new Map<string, string>();
  const fresh = async (placeholder: string): Promise<string> => {
    const kind = placeholder.split('_')[0];
    if (kind === 'pay') return /payments capture/.test(line) ? authorized() : captured();
    if (kind === 'rfnd') return (await created(`/payments/${await captured()}/refund`, { amount: 1000 })).id;
    if (kind === 'order') return (await created('/orders', { amount: 10000, currency: 'INR' })).id;
    if (kind === 'cust') return customerWithBalance();
    if (kind === 'plan')
      return (
        await created('/plans', {
          period: 'monthly',
          interval: 1,
          item: { name: 'Gold', amount: 49900, currency: 'INR' },
        })
      ).id;
    if (kind === 'sub') {
      const plan = await created('/plans', {
        period: 'monthly',
        interval: 1,
        item: { name: 'Gold', amount: 49900, currency: 'INR' },
      });
      return (await created('/subscriptions', { plan_id: plan.id, total_count: 12 })).id;
    }
    if (kind === 'fa') {
      const customer = [...ids.entries()].find(([k]) => k.startsWith('cust_'))?.[1] ?? (await customerWithBalance());
      return (
        await created('/fund_accounts', {
          customer_id: customer,
          account_type: 'bank_account',
          bank_account: { name: 'Readme', ifsc: 'HDFC0000053', account_number: '765432123456789' },
        })
      ).id;
    }
    throw new Error(`README example uses ${placeholder}: teach readme.test.ts how to make a ${kind}_ id`);
  };
  // Customers before fund accounts, so a payout's fund account belongs to its customer.
  const placeholders = [...new Set(line.match(/\b(?:pay|order|cust|plan|sub|fa|rfnd)_[A-Za-z0-9]{14}\b/g) ?? [])].sort(
    (a, b) => Number(b.startsWith('cust_')) - Number(a.startsWith('cust_')),
  );
  for (const p of placeholders) ids.set(p, await fresh(p));
  let out = line;
  for (const [p, id] of ids) out = out.split(p).join(id);
  // Profiles in the examples point at the service; here, at the sandbox.
  return out.replace(/https:\/\/api\.example\.com\/v1/g, sb.baseUrl).replace(/rzp_(live|test)_X+/g, sb.keyId);
}

/** Files the examples read, written once (a resumed bulk run must see the same input). */
async function writeInputs(line: string) {
  const make: Record<string, () => Promise<string>> = {
    'refunds.csv': async () => `payment_id,amount\n${await captured()},20000\n${await captured()},\n`,
    'ids.txt': async () => `${await authorized()}\n${await authorized()}\n`,
    'authorized.csv': async () => `payment_id\n${await authorized()}\n`,
    'customers.txt': async () => `${await customerWithBalance()}\n${await customerWithBalance()}\n`,
    'order.json': async () => JSON.stringify({ amount: 50000, currency: 'INR', receipt: 'rcpt-readme' }),
  };
  for (const name of line.match(/--input\s+(\S+)/g)?.map((m) => m.split(/\s+/)[1]!) ?? []) {
    if (name === '-' || files.has(name)) continue;
    if (!make[name]) throw new Error(`README example reads ${name}: teach readme.test.ts what to put in it`);
    writeFileSync(join(work, name), await make[name]());
    files.add(name);
  }
}

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
      assertNoSecret(stdout + stderr, `the README example ${line}`);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('README examples run', () => {
  it('finds the examples of every section', () => {
    expect(all.length).toBeGreaterThan(50);
    for (const needle of [
      'payctl orders create',
      'payctl payments refund',
      'payctl wallet payout',
      'payctl api GET',
      'payctl completion bash',
      'payctl profile add',
    ]) {
      expect(
        all.some((l) => l.includes(needle)),
        needle,
      ).toBe(true);
    }
  });

  for (const line of all) {
    const reason = skipReason(line);
    if (reason) {
      it.skip(`${line}  [skipped: ${reason}]`, () => undefined);
      continue;
    }
    it(line, async () => {
      await writeInputs(line);
      const command = await substitute(line);
      let res = await shell(command);
      // No terminal here to confirm on: an example written for a person at one is run with --yes.
      if (res.code === 2 && /pass --yes/.test(res.stderr)) res = await shell(`${command} --yes`);
      expect(res.code, `${command}\n${res.stderr}`).toBe(0);
      expect(res.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    });
  }
});
