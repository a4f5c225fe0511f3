import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, runJson, sandboxForFile } from './harness';

const sb = sandboxForFile();

describe('what a user reads on stderr', () => {
  it('counts are spelled in the singular for one', async () => {
    const seeded = await run(['sandbox', 'seed', '0', '--authorized', '1'], { env: sb.env });
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stderr).toContain('seeded 1 order, 1 authorized payment; printing payment ids');
    const dry = await run(['orders', 'create', '--amount', '100', '--currency', 'INR', '--dry-run'], { env: sb.env });
    expect(dry.stderr).toContain('dry run: 1 request shown, nothing sent');
  });

  it('a JSON array of ids is indented like every other JSON array', async () => {
    const res = await runJson<string[]>(sb, ['sandbox', 'seed', '0', '--authorized', '2']);
    expect(res.stdout).toBe(`${JSON.stringify(res.data, null, 2)}\n`);
  });

  it('a busy port says so, with what to do instead', async () => {
    const port = new URL(sb.baseUrl).port;
    const res = await run(['sandbox', 'start', '--port', port, '--db', ':memory:'], { env: { PAYCTL_HOME: sb.home } });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `payctl: port ${port} is already in use (another payctl sandbox start?)\n  pick another with --port N, or --port 0 for any free port (its URL is printed)\n`,
    );
  });

  it('--out is global: a single record goes to the file, and a write into a missing directory is never sent', async () => {
    const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
    const file = join(sb.home, 'payment.json');
    const res = await run(['payments', 'get', payment_ids[0]!, '-o', 'json', '--out', file], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ id: payment_ids[0], status: 'authorized' });
    const orders = async () => (await sb.admin<{ writes: { orders: number } }>('GET', '/stats')).writes.orders;
    const before = await orders();
    const refused = await run(
      ['orders', 'create', '--amount', '100', '--currency', 'INR', '--out', join(sb.home, 'nope', 'o.json')],
      { env: sb.env },
    );
    expect(refused.code).toBe(2);
    expect(await orders()).toBe(before);
  });

  it('--out into a directory that does not exist is refused before anything is sent, with a hint', async () => {
    const requests = async () => (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const before = await requests();
    const target = join(sb.home, 'missing', 'orders.csv');
    const res = await run(['orders', 'list', '--all', '-o', 'csv', '--out', target], { env: sb.env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`payctl: --out ${target}: the directory ${join(sb.home, 'missing')} does not exist`);
    expect(res.stderr).toContain('create it first (mkdir -p');
    expect(await requests()).toBe(before);
  });
});
