import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, ndjson, run, runJson, sandboxForFile, scratchDir } from './harness';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';

// The everyday reads and note edits of orders, payments and refunds, run as users run payctl: the built
// bin against a sandbox, with env credentials and with a stored non-default profile.

const sb = sandboxForFile();
const dir = scratchDir('payctl-support-');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let order: Json;
let paid: Json;
let declined: Json;
let refund: Json;
let profileEnv: Record<string, string>;

const csvLines = (text: string) => text.trim().split('\n');

beforeAll(async () => {
  order = (await runJson(sb, ['orders', 'create', '--amount', '250000', '--currency', 'INR', '--receipt', 'sup-1']))
    .data!;
  declined = await sb.admin('POST', '/checkout', { order_id: order.id, fail: true, email: 'priya@example.com' });
  paid = await sb.admin('POST', '/checkout', {
    order_id: order.id,
    email: 'Priya@Example.com',
    contact: '+91 98111 22233',
    method: 'upi',
  });
  const refunded = await runJson(sb, ['payments', 'refund', String(paid.id), '--amount', '50000', '--yes']);
  expect(refunded.code, refunded.stderr).toBe(0);
  refund = refunded.data!;
  profileEnv = { ...(await addProfile(sb, 'support')), PAYCTL_PROFILE: 'support' };
});

/**
 * `payctl RESOURCE edit ID --note NOTE -o csv` through the stored profile: the CSV names the record;
 * answers the record's notes as `get` reads them back afterwards.
 */
async function editedInCsv(resource: 'orders' | 'refunds', id: string, note: string): Promise<Json> {
  const csv = await run([resource, 'edit', id, '--note', note, '-o', 'csv'], { env: profileEnv });
  expect(csv.code, csv.stderr).toBe(0);
  expect(csvLines(csv.stdout)[1]).toContain(id);
  return (await runJson(sb, [resource, 'get', id])).data!.notes as Json;
}

describe('orders get | payments | edit', () => {
  it('get answers the order in json and csv, with a stored profile', async () => {
    const json = await run(['orders', 'get', String(order.id), '-o', 'json'], { env: profileEnv });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: order.id, status: 'paid', amount_paid: 250000, attempts: 2 });
    const csv = await run(['orders', 'get', String(order.id), '-o', 'csv'], { env: sb.env });
    expect(csv.code, csv.stderr).toBe(0);
    const [head, row] = csvLines(csv.stdout);
    expect(head!.split(',').slice(0, 2)).toEqual(['id', 'status']);
    expect(row).toContain(String(order.id));
  });

  it("payments lists the order's attempts, most recent first, in json and csv", async () => {
    const json = await runJson<Json[]>(sb, ['orders', 'payments', String(order.id)]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.data!.map((p) => [p.id, p.status])).toEqual([
      [paid.id, 'captured'],
      [declined.id, 'failed'],
    ]);
    const csv = await run(['orders', 'payments', String(order.id), '-o', 'csv'], { env: sb.env });
    expect(csvLines(csv.stdout)).toHaveLength(3);
    expect(csv.stderr).toMatch(/2 payment attempts on order_/);
  });

  it('edit merges notes as the service does, and an unknown order is a missing record', async () => {
    const first = await runJson(sb, ['orders', 'edit', String(order.id), '--note', 'ticket=SUP-1']);
    expect(first.code, first.stderr).toBe(0);
    const second = await runJson(sb, ['orders', 'edit', String(order.id), '--note', 'agent=asha']);
    expect(second.data!.notes).toEqual({ ticket: 'SUP-1', agent: 'asha' });
    expect(await editedInCsv('orders', String(order.id), 'agent=ravi')).toEqual({ ticket: 'SUP-1', agent: 'ravi' });
    const none = await run(['orders', 'edit', String(order.id)], { env: sb.env });
    expect(none.code).toBe(2);
    const missing = await run(['orders', 'get', 'order_AAAAAAAAAAAAAA'], { env: sb.env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no order order_AAAAAAAAAAAAAA on this account/);
  });
});

describe('payments get ID... | edit | list filters', () => {
  it('many ids stream in input order; a bad id is a row with its error and the run exits 1 naming how many', async () => {
    const input = [paid.id, 'pay_AAAAAAAAAAAAAA', declined.id, 'not-an-id'].join('\n');
    const res = await run(['payments', 'get', '--input', '-', '-o', 'ndjson'], { env: sb.env, input });
    expect(res.code).toBe(1);
    const rows = ndjson<Json>(res.stdout);
    expect(rows.map((r) => r.id)).toEqual([paid.id, 'pay_AAAAAAAAAAAAAA', declined.id, 'not-an-id']);
    expect(rows[0]!.amount_refunded).toBe(50000);
    expect(rows[1]!.error).toMatch(/does not exist/);
    expect(rows[3]!.error).toMatch(/^line 4: payment id must look like/);
    expect(res.stderr).toMatch(/2 of 4 payments could not be read/);
  });

  it("reads payctl's own csv and json output, and prints csv with an error column", async () => {
    const listed = await run(['payments', 'list', '--all', '-o', 'csv'], { env: sb.env });
    const file = join(dir, 'payments.csv');
    writeFileSync(file, listed.stdout);
    const fromCsv = await runJson<Json[]>(sb, ['payments', 'get', '--input', file]);
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    expect(fromCsv.data!.map((p) => p.id)).toEqual(
      csvLines(listed.stdout)
        .slice(1)
        .map((l) => l.split(',')[0]),
    );
    const json = await run(['payments', 'list', '--all', '-o', 'json'], { env: sb.env });
    const csv = await run(['payments', 'get', '--input', '-', '-o', 'csv'], { env: profileEnv, input: json.stdout });
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...rows] = csvLines(csv.stdout);
    expect(head!.split(',').at(-1)).toBe('error');
    expect(rows).toHaveLength(JSON.parse(json.stdout).length);
  });

  it('edit merges notes into the payment', async () => {
    await runJson(sb, ['payments', 'edit', String(paid.id), '--note', 'ticket=SUP-2']);
    const res = await run(['payments', 'edit', String(paid.id), '--note', 'agent=asha', '-o', 'csv'], {
      env: sb.env,
    });
    expect(res.code, res.stderr).toBe(0);
    const again = await runJson(sb, ['payments', 'get', String(paid.id)]);
    expect(again.data!.notes).toEqual({ ticket: 'SUP-2', agent: 'asha' });
  });

  it('list --email, --contact, --order and --method find the payment and say how many pages they read', async () => {
    await sb.admin('POST', '/seed', { orders: 40 });
    for (const filter of [
      ['--email', 'priya@example.COM', '--status', 'captured'],
      ['--contact', '9811122233'],
      ['--order', String(order.id), '--method', 'upi'],
    ]) {
      const res = await runJson<Json[]>(sb, ['payments', 'list', ...filter]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.data!.map((p) => p.id)).toEqual([paid.id]);
      expect(res.stderr).toMatch(/filtered by payctl: \d+ pages? of the service's list read/);
    }
    const csv = await run(['payments', 'list', '--email', 'priya@example.com', '-o', 'csv'], { env: profileEnv });
    expect(csvLines(csv.stdout)).toHaveLength(3);
  });
});

describe('--out .xlsx, and refusals in the words of the command', () => {
  it("a workbook of the order's attempts, and of payments read by id with the failed one's error", async () => {
    const attempts = join(dir, 'attempts.xlsx');
    const wrote = await run(['orders', 'payments', String(order.id), '--out', attempts], { env: profileEnv });
    expect(wrote.code, wrote.stderr).toBe(0);
    const book = readXlsx(attempts);
    expect(sheetRows(book[book.sheets[0]!] as Sheet).map((r) => r.id!.v)).toEqual([paid.id, declined.id]);

    const byId = join(dir, 'by-id.xlsx');
    const read = await run(['payments', 'get', String(paid.id), 'pay_AAAAAAAAAAAAAA', '--out', byId], { env: sb.env });
    expect(read.code).toBe(1);
    expect(read.stderr).toMatch(/1 of 2 payments could not be read/);
    const rows = sheetRows(readXlsx(byId)[readXlsx(byId).sheets[0]!] as Sheet);
    expect(rows.map((r) => r.id!.v)).toEqual([paid.id, 'pay_AAAAAAAAAAAAAA']);
    expect(String(rows[1]!.error!.v)).toMatch(/does not exist/);
  });

  it("an unknown order's payments are refused by what was asked, in any format", async () => {
    const res = await run(['orders', 'payments', 'order_AAAAAAAAAAAAAA', '-o', 'table'], { env: sb.env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^payctl: cannot list the payments of order order_AAAAAAAAAAAAAA: no order order_AAAAAAAAAAAAAA on this account/,
    );
  });
});

describe('refunds get ID... | edit', () => {
  it('get of many in json and csv; edit merges notes', async () => {
    const json = await runJson<Json[]>(sb, ['refunds', 'get', String(refund.id), 'rfnd_AAAAAAAAAAAAAA']);
    expect(json.code).toBe(1);
    expect(json.data!.map((r) => r.id)).toEqual([refund.id, 'rfnd_AAAAAAAAAAAAAA']);
    expect(json.stderr).toMatch(/1 of 2 refunds could not be read/);
    const edited = await runJson(sb, ['refunds', 'edit', String(refund.id), '--note', 'ticket=SUP-3']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.data!.notes).toMatchObject({ ticket: 'SUP-3' });
    const csv = await run(['refunds', 'get', String(refund.id), '-o', 'csv'], { env: sb.env });
    expect(csvLines(csv.stdout)[1]).toContain(String(refund.id));
    expect(await editedInCsv('refunds', String(refund.id), 'agent=asha')).toMatchObject({
      ticket: 'SUP-3',
      agent: 'asha',
    });
  });
});

describe('an unknown route', () => {
  it('is the service having no such endpoint, named by method and path, not a missing record', async () => {
    const res = await run(['api', 'GET', '/no/such/thing'], { env: sb.env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^payctl: the service has no endpoint GET \/no\/such\/thing;/);
    expect(res.stderr).not.toMatch(/on this account/);
    const known = await runJson(sb, ['api', 'GET', `/orders/${order.id}`]);
    expect(known.code, known.stderr).toBe(0);
    expect(known.data).toMatchObject({ id: order.id, entity: 'order' });
  });
});
