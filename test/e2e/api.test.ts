import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedPayment, run, runJson, sandboxForFile, scratchDir } from './harness';
import type { SandboxProcess } from './harness';
import { KEY, onTerminal } from './pty';

type Rec = Record<string, unknown>;
const dir = scratchDir('payctl-api-');
const sb = sandboxForFile();

/** Orders created plus captures and refunds applied, as the sandbox counts them. */
const writes = async () => {
  const w = (await sb.admin<{ writes: { orders: number; captures: number; refunds: number } }>('GET', '/stats')).writes;
  return w.orders + w.captures + w.refunds;
};

describe('payctl api', () => {
  it('GET a path below the base URL: the service answer exactly, with or without the /v1 prefix', async () => {
    const id = await capturedPayment(sb);
    const direct = (await sb.api<Rec>('GET', `/payments/${id}`)).body;
    for (const args of [['GET', `/payments/${id}`], [`/v1/payments/${id}`], [`payments/${id}`]]) {
      const res = await runJson(sb, ['api', ...args]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.data).toEqual(direct);
    }
    const table = await run(['api', 'GET', `/payments/${id}`, '-o', 'table'], { env: sb.env });
    expect(table.stdout).toMatch(/amount\s+₹500\.00 \(50000 paise\)/);
  });

  it('a list: the query string and GET fields pick the page; rows for ndjson and csv', async () => {
    await sb.admin('POST', '/seed', { orders: 5 });
    const page = await runJson<{ entity: string; count: number; items: Rec[] }>(sb, [
      'api',
      'GET',
      '/orders?count=2',
      '-F',
      'skip=1',
    ]);
    expect(page.code, page.stderr).toBe(0);
    expect(page.data).toMatchObject({ entity: 'collection', count: 2 });
    const nd = await run(['api', 'GET', '/orders', '-F', 'count=3', '-o', 'ndjson'], { env: sb.env });
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Rec).entity),
    ).toEqual(['order', 'order', 'order']);
    const csv = await run(['api', 'GET', '/orders', '-F', 'count=3', '-o', 'csv'], { env: sb.env });
    expect(csv.stdout.split('\n')[0]).toMatch(/^id,status,amount/);
  });

  it('--all walks count/skip pages: every order once, as `orders list --all` sees them', async () => {
    await sb.admin('POST', '/seed', { orders: 130 });
    const viaApi = await run(['api', 'GET', '/orders', '--all', '-o', 'ndjson'], { env: sb.env });
    expect(viaApi.code, viaApi.stderr).toBe(0);
    const ids = viaApi.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as Rec).id);
    const named = await runJson<Rec[]>(sb, ['orders', 'list', '--all']);
    expect(ids.length).toBeGreaterThan(130);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(named.data!.map((o) => o.id));
    const limited = await runJson<Rec[]>(sb, ['api', 'GET', '/orders', '--all', '--limit', '120']);
    expect(limited.data).toHaveLength(120);
    expect(Array.isArray(limited.data)).toBe(true);
  });

  it('--out writes atomically; a missing directory is refused first with a hint (exit 2, nothing sent)', async () => {
    const file = join(dir, 'orders.csv');
    const res = await run(['api', 'GET', '/orders', '--all', '-o', 'csv', '--out', file], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^id,/);
    const id = await capturedPayment(sb);
    const one = join(dir, 'payment.json');
    expect((await run(['api', `/payments/${id}`, '--out', one, '-o', 'json'], { env: sb.env })).code).toBe(0);
    expect(JSON.parse(readFileSync(one, 'utf8'))).toMatchObject({ id, status: 'captured' });
    const requests = (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const missing = await run(['api', 'GET', '/orders', '--out', join(dir, 'no', 'such', 'dir', 'x.json')], {
      env: sb.env,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the directory .*no\/such\/dir does not exist\n\s+create it first \(mkdir -p /);
    expect((await sb.admin<{ requests: number }>('GET', '/stats')).requests).toBe(requests);
  });

  it('-F types numbers, booleans and null and nests a[b]; -f keeps text; a POST needs --yes without a terminal', async () => {
    const before = await writes();
    const args = [
      'api',
      'POST',
      '/orders',
      '-F',
      'amount=2500',
      '-F',
      'currency=INR',
      '-F',
      'payment_capture=false',
      '-F',
      'notes[batch]=b7',
      '-f',
      'receipt=00042',
    ];
    const refused = await run(args, { env: sb.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    expect(await writes()).toBe(before);
    const dry = await runJson<Array<{ method: string; url: string; body: Rec }>>(sb, [...args, '--dry-run']);
    expect(dry.data![0]).toMatchObject({
      method: 'POST',
      body: { amount: 2500, currency: 'INR', payment_capture: false, notes: { batch: 'b7' }, receipt: '00042' },
    });
    expect(dry.data![0]!.url).toBe(`${sb.baseUrl}/orders`);
    expect(await writes()).toBe(before);
    const made = await runJson(sb, [...args, '--yes']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.data).toMatchObject({ entity: 'order', amount: 2500, receipt: '00042', notes: { batch: 'b7' } });
    expect(await writes()).toBe(before + 1);
  });

  it('bad requests stop before sending: other methods, full URLs, dot segments, bad fields, --input that is not JSON', async () => {
    const bad = join(dir, 'bad.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, '{not json'));
    for (const args of [
      ['api', 'DELETE', '/orders'],
      ['api', 'GET', 'https://evil.example/v1/orders'],
      ['api', 'GET', '/payments/../orders'],
      ['api', 'POST', '/orders', '-F', 'novalue', '--yes'],
      ['api', 'POST', '/orders', '--input', bad, '--yes'],
      ['api', 'POST', '/orders', '--all'],
    ]) {
      const res = await run(args, { env: sb.env });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('--input - sends a JSON body from stdin; the service refusing it is exit 1 with its error', async () => {
    const id = await capturedPayment(sb);
    const res = await runJson(sb, ['api', 'POST', `/payments/${id}/refund`, '--input', '-', '--yes'], {
      input: JSON.stringify({ amount: 1500, notes: { via: 'stdin' } }),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ entity: 'refund', amount: 1500, payment_id: id });
    const tooMuch = await run(['api', 'POST', `/payments/${id}/refund`, '-F', 'amount=999999', '--yes'], {
      env: sb.env,
    });
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/BAD_REQUEST_ERROR/);
  });
});

describe('payctl api when the answer to a write is lost', () => {
  let server: Server;
  let env: Record<string, string>;
  const seen: string[] = [];
  beforeAll(async () => {
    // A gateway that loses every POST's answer (a bare 502) and serves GETs: a payment already captured.
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'POST') return void res.writeHead(502).end('<html>Bad Gateway</html>');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'pay_29QQoUBi66xm2f',
          entity: 'payment',
          amount: 100,
          currency: 'INR',
          status: 'captured',
          amount_refunded: 0,
          created_at: 1714501799,
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    env = {
      PAYCTL_HOME: dir,
      PAYCTL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PAYCTL_KEY_ID: 'rzp_test_lost',
      PAYCTL_KEY_SECRET: 'lost-answer-secret',
      PAYCTL_MAX_RETRIES: '0',
    };
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('exit 6 names the exact payctl command to check, and the POST was sent once', async () => {
    seen.length = 0;
    const res = await run(['api', 'POST', '/payments/pay_29QQoUBi66xm2f/refund', '-F', 'amount=100', '--yes'], { env });
    expect(res.code).toBe(6);
    expect(res.stderr).toContain('`payctl payments get pay_29QQoUBi66xm2f`');
    expect(seen.filter((s) => s.startsWith('POST'))).toEqual(['POST /v1/payments/pay_29QQoUBi66xm2f/refund']);
    const order = await run(['orders', 'create', '--amount', '100', '--currency', 'INR', '--receipt', 'rc-lost'], {
      env,
    });
    expect(order.code).toBe(6);
    expect(order.stderr).toMatch(/`payctl orders list --receipt rc-lost --from 1h --tz \S+`/);
    const sub = await run(['subscriptions', 'cancel', 'sub_00000000000001', '--yes'], { env });
    expect(sub.code).toBe(6);
    expect(sub.stderr).toContain('`payctl subscriptions get sub_00000000000001`');
  });

  it('a capture whose answer is lost is read back: captured means done (exit 0)', async () => {
    seen.length = 0;
    const res = await runJson({ env } as unknown as SandboxProcess, [
      'api',
      'POST',
      '/payments/pay_29QQoUBi66xm2f/capture',
      '-F',
      'amount=100',
      '-F',
      'currency=INR',
      '--yes',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ status: 'captured' });
    expect(res.stderr).toContain('read back from the service');
    expect(seen).toEqual(['POST /v1/payments/pay_29QQoUBi66xm2f/capture', 'GET /v1/payments/pay_29QQoUBi66xm2f']);
  });
});

describe('confirmations on a terminal', () => {
  it('a single refund on a live profile names the profile and marks it LIVE; "No" sends nothing and says so', async () => {
    const id = await capturedPayment(sb);
    const add = await run(
      ['profile', 'add', 'prod', '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--live', '--key-secret-stdin'],
      {
        env: { PAYCTL_HOME: sb.home },
        input: sb.keySecret,
      },
    );
    expect(add.code, add.stderr).toBe(0);
    const before = await writes();
    const t = onTerminal(['-p', 'prod', 'payments', 'refund', id, '--amount', '100'], {
      PAYCTL_HOME: sb.home,
      NO_COLOR: '1',
    });
    const question = (await t.waitFor(/\(y\s*\/\s*N\)/)).replace(/ *\n */g, ' ');
    expect(question).toContain(`[LIVE profile prod] Refund ₹1.00 (100 paise) of payment ${id}`);
    await t.type('n', KEY.enter);
    await t.waitFor('nothing was sent');
    expect(await t.exited).toBe(8);
    expect(await writes()).toBe(before);
  });

  it('--no-color reaches the prompt too: colour sequences without it, none with it', async () => {
    const id = await capturedPayment(sb);
    for (const flags of [[], ['--no-color']]) {
      // Whatever colour settings the suite runs with stay out (an undefined variable is not passed on).
      const t = onTerminal(['payments', 'refund', id, '--amount', '100', ...flags], {
        ...sb.env,
        NO_COLOR: undefined,
        FORCE_COLOR: undefined,
        CI: undefined,
      } as unknown as Record<string, string>);
      await t.waitFor(/\(y\s*\/\s*N\)/);
      t.kill();
      await t.exited.catch(() => undefined);
      expect(/\x1b\[[0-9;]*m/.test(t.raw()), `with ${flags.join(' ') || 'no flags'}`).toBe(flags.length === 0);
    }
  });

  it('payctl api POST asks on a terminal too, naming the profile', async () => {
    const id = await capturedPayment(sb);
    const t = onTerminal(['api', 'POST', `/payments/${id}/refund`, '-F', 'amount=100'], { ...sb.env, NO_COLOR: '1' });
    const question = (await t.waitFor(/\(y\s*\/\s*N\)/)).replace(/ *\n */g, ' ');
    expect(question).toContain(
      `[keys from PAYCTL_KEY_ID] Send POST ${sb.baseUrl}/payments/${id}/refund {"amount":100} — amount 100 in the smallest currency unit?`,
    );
    await t.type('y', KEY.enter);
    expect(await t.exited).toBe(0);
  });
});
