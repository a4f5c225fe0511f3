import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';
import { capturedPayment, run, runJson, sandboxForFile } from './harness';
import { needs } from '../tools';
import { sdkFor } from './sdk';
import type { Json } from './sdk';

// `payctl refunds list|get` as users run them: the built bin against a sandbox on a loopback port.

type Refund = { id: string; payment_id: string; amount: number; currency: string; status: string; notes: object };

const sb = sandboxForFile();
let dir: string;
let a: string;
let b: string;
/** The refunds made, oldest first. */
const made: Refund[] = [];

async function refund(payment: string, body: object) {
  const res = await sb.api<Refund>('POST', `/payments/${payment}/refund`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  made.push(res.body);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'payctl-refunds-'));
  [a, b] = [await capturedPayment(sb), await capturedPayment(sb)];
  await refund(a, { amount: 1000 });
  await refund(b, { amount: 2500, receipt: 'rcpt-b', notes: { reason: 'damaged, "torn" box' } });
  await refund(a, { amount: 3000, notes: { reason: 'late' } });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const newestFirst = () => [...made].reverse();
const ids = (rows: Array<Record<string, unknown>>) => rows.map((r) => r.id);

describe('payctl refunds list', () => {
  it('json: every refund, most recent first, as the service returns them', async () => {
    const res = await runJson<Refund[]>(sb, ['refunds', 'list']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.data).toEqual(newestFirst());
  });

  it("--payment: only that payment's refunds", async () => {
    const res = await runJson<Refund[]>(sb, ['refunds', 'list', '--payment', a]);
    expect(res.code, res.stderr).toBe(0);
    expect(ids(res.data!)).toEqual([made[2]!.id, made[0]!.id]);
    expect(res.data!.map((r) => r.amount)).toEqual([3000, 1000]);
  });

  it('ndjson: one refund a line', async () => {
    const res = await run(['refunds', 'list', '-o', 'ndjson'], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as Refund)).toEqual(newestFirst());
  });

  it('csv: the refund columns, amounts and times in readable form too, notes as JSON', async () => {
    const res = await run(['refunds', 'list', '-o', 'csv'], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe(
      'id,payment_id,amount,amount_display,currency,status,created_at,created_at_iso,created_at_local,' +
        'receipt,speed_processed,notes',
    );
    const rows = parse(res.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(ids(rows)).toEqual(ids(newestFirst()));
    expect(rows[1]).toMatchObject({
      payment_id: b,
      amount: '2500',
      amount_display: '₹25.00',
      currency: 'INR',
      status: 'processed',
      receipt: 'rcpt-b',
      speed_processed: 'normal',
    });
    expect(JSON.parse(rows[1]!.notes!)).toEqual({ reason: 'damaged, "torn" box' });
    expect(rows[1]!.created_at_iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
  });

  it('table: a header and a row per refund, amounts in rupees and paise', async () => {
    const res = await run(['refunds', 'list', '--payment', a, '-o', 'table', '--wide'], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    const [head, , ...rows] = res.stdout.trimEnd().split('\n');
    expect(head!.split(/\s{2,}/)).toEqual([
      'id',
      'payment_id',
      'amount',
      'currency',
      'status',
      'created_at',
      'receipt',
      'speed_processed',
      'notes',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`^${made[2]!.id}\\s+${a}\\s+₹30\\.00 \\(3000 paise\\)\\s+INR\\s+processed`));
    expect(rows[0]).toContain('{"reason":"late"}');
    expect(rows[1]).toMatch(new RegExp(`^${made[0]!.id}\\s+${a}\\s+₹10\\.00 \\(1000 paise\\)`));
  });

  it('pages: --count/--skip pick one page; --all --limit walks and stops', async () => {
    const page = await runJson<Refund[]>(sb, ['refunds', 'list', '--count', '1', '--skip', '1']);
    expect(page.code, page.stderr).toBe(0);
    expect(ids(page.data!)).toEqual([made[1]!.id]);
    const limited = await runJson<Refund[]>(sb, ['refunds', 'list', '--all', '--limit', '2']);
    expect(limited.code, limited.stderr).toBe(0);
    expect(ids(limited.data!)).toEqual(ids(newestFirst()).slice(0, 2));
    const future = await runJson<Refund[]>(sb, ['refunds', 'list', '--from', '2099-01-01']);
    expect([future.code, future.data]).toEqual([0, []]);
  });

  it('--out FILE.xlsx and .csv: every refund of the payment, file readable by its owner only', async () => {
    const xlsx = join(dir, 'refunds-a.xlsx');
    const res = await run(['refunds', 'list', '--payment', a, '--out', xlsx], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(statSync(xlsx).mode & 0o777).toBe(0o600);
    const book = readXlsx(xlsx);
    const rows = sheetRows(book[book.sheets[0]!] as Sheet);
    expect(rows.map((r) => r.id!.v)).toEqual([made[2]!.id, made[0]!.id]);
    expect(rows.map((r) => r.amount!.v)).toEqual([3000, 1000]);
    const csv = join(dir, 'refunds.csv');
    expect((await run(['refunds', 'list', '--out', csv], { env: sb.env })).code).toBe(0);
    expect(ids(parse(readFileSync(csv, 'utf8'), { columns: true }) as Refund[])).toEqual(ids(newestFirst()));
  });

  it('an unknown payment is the service refusing (exit 1); a malformed id is exit 2, nothing sent', async () => {
    const unknown = await run(['refunds', 'list', '--payment', 'pay_AAAAAAAAAAAAAA'], { env: sb.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('The id provided does not exist');
    const before = (await sb.admin<{ requests: number }>('GET', '/stats')).requests;
    const bad = await run(['refunds', 'list', '--payment', 'rfnd_1'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/payment id must look like pay_/);
    const fields = await run(['refunds', 'list', '--fields', 'id,amont'], { env: sb.env });
    expect(fields.code).toBe(2);
    expect(fields.stderr).toContain('did you mean amount?');
    expect((await sb.admin<{ requests: number }>('GET', '/stats')).requests).toBe(before);
  });
});

describe('payctl refunds get', () => {
  it('json, ndjson and csv: the one refund', async () => {
    const want = made[1]!;
    const json = await runJson<Refund>(sb, ['refunds', 'get', want.id]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.data).toEqual(want);
    const nd = await run(['refunds', 'get', want.id, '-o', 'ndjson'], { env: sb.env });
    expect(JSON.parse(nd.stdout)).toEqual(want);
    const csv = await run(['refunds', 'get', want.id, '-o', 'csv', '--fields', 'id,amount,notes.reason'], {
      env: sb.env,
    });
    expect(csv.code, csv.stderr).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { id: want.id, amount: '2500', 'notes.reason': 'damaged, "torn" box' },
    ]);
  });

  it('table: one field a line, notes spelled out', async () => {
    const res = await run(['refunds', 'get', made[1]!.id, '-o', 'table'], { env: sb.env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^id\\s+${made[1]!.id}$`, 'm'));
    expect(res.stdout).toMatch(/^amount\s+₹25\.00 \(2500 paise\)$/m);
    expect(res.stdout).toMatch(/^receipt\s+rcpt-b$/m);
    expect(res.stdout).toMatch(/^notes\.reason\s+damaged, "torn" box$/m);
  });

  it('an unknown refund: exit 1 with the service error; a malformed id: exit 2', async () => {
    const unknown = await run(['refunds', 'get', 'rfnd_AAAAAAAAAAAAAA'], { env: sb.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('The id provided does not exist');
    const bad = await run(['refunds', 'get', 'pay_AAAAAAAAAAAAAA'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/refund id must look like rfnd_/);
  });
});

describe('the official SDK against the same endpoints', () => {
  it('refunds.all, refunds.all({ payment_id }), payments.fetchMultipleRefund and refunds.fetch', async () => {
    const rzp = sdkFor(sb);
    const all: Json = await rzp.refunds.all();
    expect(ids(all.items)).toEqual(ids(newestFirst()));
    const ofA: Json = await rzp.refunds.all({ payment_id: a });
    expect(ids(ofA.items)).toEqual([made[2]!.id, made[0]!.id]);
    const multiple: Json = await rzp.payments.fetchMultipleRefund(b, { count: 5 });
    expect(ids(multiple.items)).toEqual([made[1]!.id]);
    expect(await rzp.refunds.fetch(made[1]!.id)).toEqual(made[1]);
  });
});

describe('completion of refunds', () => {
  const script = (name: string) => fileURLToPath(new URL(`../../completions/${name}`, import.meta.url));
  const lines = (res: { status: number | null; stdout: string; stderr: string }) => {
    expect(res.status, res.stderr).toBe(0);
    return res.stdout.split('\n').filter(Boolean);
  };

  it('bash: the group, its commands and --payment', () => {
    const bash = (words: string) =>
      lines(
        spawnSync(
          'bash',
          [
            '-c',
            `source "$0"; COMP_WORDS=(${words}); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); _payctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
            script('payctl.bash'),
          ],
          { encoding: 'utf8' },
        ),
      );
    expect(bash('payctl refu')).toEqual(['refunds']);
    expect(bash("payctl refunds ''").slice(0, 2)).toEqual(['list', 'get']);
    expect(bash('payctl refunds list --pay')).toEqual(['--payment']);
  });

  it('fish: the commands and --payment', () => {
    needs('fish');
    const fish = (line: string) =>
      lines(
        spawnSync(
          'fish',
          ['--no-config', '-c', `source ${script('payctl.fish')}; complete -C ${JSON.stringify(line)}`],
          {
            encoding: 'utf8',
          },
        ),
      );
    expect(fish('payctl refunds ')).toEqual(['edit', 'get', 'list']);
    expect(fish('payctl refunds list --pay').map((l) => l.split('\t')[0])).toEqual(['--payment']);
  });
});
