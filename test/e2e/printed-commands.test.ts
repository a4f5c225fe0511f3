import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { faultProxyForFile } from './fault-proxy';
import type { Fault, ProxyRequest } from './fault-proxy';
import { addProfile, run, sandboxForFile, seedCaptured, startPayctl } from './harness';

/**
 * Every command payctl prints for a person to run next (exit 6, an interrupt, a bulk resume) is run
 * exactly as printed, from a script with no terminal, and must find the write it is about. The write
 * goes through a stored profile `shop` (a proxy that loses answers) while the default profile `main`
 * points at another service entirely: a printed command that dropped `-p shop` would look in the wrong
 * place and find nothing.
 */
const sb = sandboxForFile();
const other = sandboxForFile();
beforeAll(async () => {
  await addProfile(other, 'main', { home: sb.home });
}, 30_000);
const proxy = faultProxyForFile(sb, 'shop');

const env = () => ({ PAYCTL_HOME: sb.home });

/** The commands payctl printed in backticks on stderr, split into arguments as a POSIX shell does. */
function printedCommands(stderr: string): string[][] {
  return [...stderr.matchAll(/`(payctl [^`]+)`/g)].map((m) => shellSplit(m[1]!));
}
function shellSplit(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}
/** Runs a printed command as printed (its first word is `payctl`), with nothing but the home in the environment. */
async function runPrinted(words: string[]) {
  expect(words[0]).toBe('payctl');
  return run(words.slice(1), { env: env() });
}

/** `fault` for requests that `match`; everything else passes. */
function faultWhen(match: (r: ProxyRequest) => boolean, fault: () => Fault) {
  proxy.setRule((r) => (match(r) ? fault() : { type: 'pass' }));
}
const appliedRefunds = async (id: string) =>
  (await sb.admin<{ applied: { refunds: Record<string, { count: number; amount: number }> } }>('GET', '/stats')).applied
    .refunds[id];

describe('printed commands run as printed find the write', () => {
  it('orders create, answer lost: the printed check names -p shop and its zone, and lists the order', async () => {
    faultWhen(
      (r) => r.method === 'POST' && r.path.startsWith('/v1/orders'),
      () => ({ type: 'drop-after' }),
    );
    const created = await run(
      ['-p', 'shop', 'orders', 'create', '--amount', '500', '--currency', 'INR', '--receipt', 'lost-1'],
      {
        env: { ...env(), PAYCTL_MAX_RETRIES: '0' },
      },
    );
    expect(created.code, created.stderr).toBe(6);
    const [check] = printedCommands(created.stderr);
    expect(check).toEqual(expect.arrayContaining(['-p', 'shop', '--tz', '--receipt', 'lost-1']));
    proxy.setRule(() => ({ type: 'pass' }));
    const found = await runPrinted([...check!, '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    const orders = JSON.parse(found.stdout) as Array<{ receipt: string; amount: number }>;
    expect(orders.map((o) => [o.receipt, o.amount])).toEqual([['lost-1', 500]]);
  });

  it('a refund whose outcome stays unknown: the printed rerun (-p shop, --yes) completes without a second refund', async () => {
    const [pay] = await seedCaptured(sb, 1);
    let land!: () => void;
    const until = new Promise<void>((resolve) => (land = resolve));
    let landed!: (status: number) => void;
    const applied = new Promise<number>((resolve) => (landed = resolve));
    faultWhen(
      (r) => r.method === 'POST' && r.path.endsWith('/refund'),
      () => ({ type: 'held', status: 504, until, landed }),
    );
    const first = await run(['-p', 'shop', 'payments', 'refund', pay!, '--amount', '1000', '--yes'], { env: env() });
    expect(first.code, first.stderr).toBe(6);
    land();
    expect(await applied).toBe(200);
    proxy.setRule(() => ({ type: 'pass' }));
    const commands = printedCommands(first.stderr);
    const rerun = commands.find((c) => c.includes('--idempotency-key'))!;
    expect(rerun.slice(0, 3)).toEqual(['payctl', '-p', 'shop']);
    expect(rerun).toContain('--yes');
    const again = await runPrinted(rerun);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/refunded already with key .*nothing was sent/);
    expect(await appliedRefunds(pay!)).toEqual({ count: 1, amount: 1000 });
    const check = commands.find((c) => c.includes('get'))!;
    const shown = await runPrinted([...check, '-o', 'json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: pay, amount_refunded: 1000 });
  });

  it('a capture whose outcome stays unknown: the printed check (-p shop) shows it captured once it lands', async () => {
    const [pay] = await sb
      .admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })
      .then((r) => r.payment_ids);
    let land!: () => void;
    const until = new Promise<void>((resolve) => (land = resolve));
    const statuses: number[] = [];
    faultWhen(
      (r) => r.method === 'POST' && r.path.endsWith('/capture'),
      () => ({ type: 'held', status: 504, until, landed: (s) => statuses.push(s) }),
    );
    const first = await run(['-p', 'shop', 'payments', 'capture', pay!, '--yes'], { env: env() });
    expect(first.code, first.stderr).toBe(6);
    land();
    const sent = proxy.log.filter((r) => r.path.includes(pay!) && r.method === 'POST').length;
    while (statuses.length < sent) await new Promise((r) => setTimeout(r, 20));
    proxy.setRule(() => ({ type: 'pass' }));
    const [check] = printedCommands(first.stderr);
    expect(check!.slice(0, 5)).toEqual(['payctl', '-p', 'shop', 'payments', 'get']);
    const shown = await runPrinted([...check!, '-o', 'json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: pay, status: 'captured' });
  });

  it('an interrupted order: the printed check names -p shop, the zone and the receipt, and lists the order', async () => {
    faultWhen(
      (r) => r.method === 'POST' && r.path.startsWith('/v1/orders'),
      () => ({ type: 'hang-after' }),
    );
    const before = proxy.log.length;
    const started = startPayctl(
      ['-p', 'shop', 'orders', 'create', '--amount', '700', '--currency', 'INR', '--receipt', 'cut-1'],
      env(),
    );
    const seen = Date.now();
    while (!proxy.log.slice(before).some((r) => r.method === 'POST' && r.path.startsWith('/v1/orders'))) {
      expect(Date.now() - seen).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 200)); // the sandbox has applied it
    started.signal('SIGINT');
    expect(await started.exit).toBe(130);
    proxy.setRule(() => ({ type: 'pass' }));
    const [check] = printedCommands(started.err());
    expect(check).toEqual(expect.arrayContaining(['-p', 'shop', '--tz', '--receipt', 'cut-1']));
    const found = await runPrinted([...check!, '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as Array<{ receipt: string }>).map((o) => o.receipt)).toEqual(['cut-1']);
  });

  it('a bulk refund with an unknown row: the printed resume (-p shop, its journal, --yes) finishes it once', async () => {
    const ids = await seedCaptured(sb, 3);
    const input = join(sb.home, 'resume-ids.txt');
    writeFileSync(input, ids.join('\n'));
    let land!: () => void;
    const until = new Promise<void>((resolve) => (land = resolve));
    let landed!: (status: number) => void;
    const applied = new Promise<number>((resolve) => (landed = resolve));
    faultWhen(
      (r) => r.method === 'POST' && r.path.includes(ids[1]!) && r.path.endsWith('/refund'),
      () => ({ type: 'held', status: 504, until, landed }),
    );
    const first = await run(['-p', 'shop', 'payments', 'refund', '--input', input, '--amount', '100', '--yes'], {
      env: env(),
    });
    expect(first.code, first.stderr).toBe(7);
    land();
    expect(await applied).toBe(200);
    proxy.setRule(() => ({ type: 'pass' }));
    const resume = printedCommands(first.stderr).find((c) => c.includes('--journal') && !c.includes('--recheck'))!;
    expect(resume.slice(0, 3)).toEqual(['payctl', '-p', 'shop']);
    const again = await runPrinted(resume);
    expect(again.code, again.stderr).toBe(0);
    for (const id of ids) expect(await appliedRefunds(id)).toEqual({ count: 1, amount: 100 });
  });
});
