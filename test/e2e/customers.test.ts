import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readXlsx, sheetRows } from './exports-workbook';
import type { Sheet } from './exports-workbook';
import { addProfile, run, runJson, sandboxForFile, seedCaptured } from './harness';

interface Customer {
  id: string;
  entity: string;
  name: string | null;
  email: string | null;
  contact: string | null;
  gstin: string | null;
  notes: Record<string, string>;
  created_at: number;
}

const sb = sandboxForFile();
const realKeys = Object.keys(
  JSON.parse(readFileSync(new URL('../fixtures/real/customer.json', import.meta.url), 'utf8')) as object,
).sort();

async function create(args: string[]) {
  const res = await runJson<Customer>(sb, ['customers', 'create', ...args]);
  expect(res.code, res.stderr).toBe(0);
  return res.data!;
}

describe('payctl customers', () => {
  it('create answers a customer shaped like the real one; the same e-mail and phone again is that customer', async () => {
    // The same e-mail and phone each time, under another name.
    const asha = (name: string) => ['--name', name, '--email', 'asha@example.com', '--contact', '+919876543210'];
    const first = await create([...asha('Asha Rao'), '--gstin', '29abcde1234f1z5', '--note', 'tier=gold']);
    expect(Object.keys(first).sort()).toEqual(realKeys);
    expect(first).toMatchObject({
      entity: 'customer',
      name: 'Asha Rao',
      email: 'asha@example.com',
      contact: '+919876543210',
      gstin: '29ABCDE1234F1Z5',
      notes: { tier: 'gold' },
    });
    expect(first.id).toMatch(/^cust_[A-Za-z0-9]{14}$/);
    expect(await create(asha('Asha R'))).toEqual(first);

    const refused = await run(['customers', 'create', ...asha('Asha'), '--fail-existing'], { env: sb.env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('Customer already exists for the merchant');
  });

  it('the service rule itself: fail_existing "1" (and by default) refuses, "0" answers the existing customer', async () => {
    const body = { name: 'Meera Iyer', email: 'meera@example.com', contact: '9811122233' };
    const first = await sb.api<Customer>('POST', '/customers', body);
    expect(first.status).toBe(200);
    for (const extra of [{}, { fail_existing: '1' }, { fail_existing: 1 }]) {
      const dup = await sb.api<{ error: { code: string; description: string } }>('POST', '/customers', {
        ...body,
        ...extra,
      });
      expect(dup.status).toBe(400);
      expect(dup.body.error).toMatchObject({
        code: 'BAD_REQUEST_ERROR',
        description: 'Customer already exists for the merchant',
      });
    }
    const found = await sb.api<Customer>('POST', '/customers', { ...body, name: 'Other', fail_existing: '0' });
    expect(found).toEqual({ status: 200, body: first.body });
    // Same e-mail, another phone: a different customer.
    const other = await sb.api<Customer>('POST', '/customers', { ...body, contact: '9811122234' });
    expect(other.status).toBe(200);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('get and list in json, csv and an 80-column table, with a stored profile too', async () => {
    const vikram = await create(['--name', 'Vikram Shah', '--contact', '9123456780', '--email', 'vikram@example.com']);
    const got = await runJson<Customer>(sb, ['customers', 'get', vikram.id]);
    expect(got.data).toEqual(vikram);

    const listed = await runJson<Customer[]>(sb, ['customers', 'list', '--all']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.data![0]).toEqual(vikram);
    expect(listed.data!.map((c) => c.id)).toContain(vikram.id);

    const csv = await run(['customers', 'list', '--all', '-o', 'csv'], { env: sb.env });
    const [header, first] = csv.stdout.trim().split('\n');
    expect(header).toBe('id,name,contact,email,created_at,created_at_iso,created_at_local');
    expect(first).toMatch(new RegExp(`^${vikram.id},Vikram Shah,9123456780,vikram@example.com,${vikram.created_at},`));

    const book = join(sb.home, 'customers.xlsx');
    const wrote = await run(['customers', 'list', '--out', book], { env: sb.env });
    expect(wrote.code, wrote.stderr).toBe(0);
    const workbook = readXlsx(book);
    expect(workbook.sheets).toEqual(['Customers', 'Summary']);
    const sheet = sheetRows(workbook.Customers as Sheet);
    expect(sheet[0]).toMatchObject({
      id: { v: vikram.id },
      name: { v: 'Vikram Shah' },
      email: { v: 'vikram@example.com' },
    });
    expect(sheet[0]!.created_at_local).toMatchObject({ t: 'date' });

    const env = { ...(await addProfile(sb, 'support')), PAYCTL_PROFILE: 'support', COLUMNS: '80' };
    const table = await run(['customers', 'get', vikram.id, '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/email\s+vikram@example\.com/);
    const rows = await run(['customers', 'list', '-o', 'table'], { env });
    expect(rows.code, rows.stderr).toBe(0);
    const lines = rows.stdout.split('\n');
    // At 80 columns the least wanted column goes, and the table says so.
    expect(lines[0]).toMatch(/^id\s+name\s+contact\s+email$/);
    expect(rows.stderr).toContain('not shown (--wide): created_at');
    expect(lines.find((l) => l.startsWith(vikram.id))).toContain('vikram@example.com');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);

    const fields = await run(['customers', 'list', '--fields', 'id,gstn'], { env: sb.env });
    expect(fields.code).toBe(2);
    expect(fields.stderr).toContain('did you mean gstin?');
  });

  it("edit changes name, e-mail or phone (PUT); nothing to change, or another customer's details, is refused", async () => {
    const c = await create(['--name', 'Ravi Kumar', '--contact', '9000000001']);
    const edited = await runJson<Customer>(sb, [
      'customers',
      'edit',
      c.id,
      '--email',
      'ravi@example.com',
      '--name',
      'Ravi K',
    ]);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.data).toEqual({ ...c, name: 'Ravi K', email: 'ravi@example.com' });
    expect((await runJson<Customer>(sb, ['customers', 'get', c.id])).data).toEqual(edited.data);

    const nothing = await run(['customers', 'edit', c.id], { env: sb.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to change');

    const d = await create(['--name', 'Ravi Two', '--contact', '9000000002', '--email', 'ravi2@example.com']);
    const clash = await run(['customers', 'edit', d.id, '--email', 'ravi@example.com', '--contact', '9000000001'], {
      env: sb.env,
    });
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('Customer already exists for the merchant');
    const bad = await run(['customers', 'edit', d.id, '--email', 'not-an-address'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('e-mail');
  });

  it('the wallet commands take these customers', async () => {
    const c = await create(['--name', 'Wallet Holder', '--contact', '+919812300001']);
    await seedCaptured(sb, 1); // the merchant account a credit draws on
    const credit = await run(['wallet', 'credit', '--customer', c.id, '--amount', '5000', '--yes', '-o', 'json'], {
      env: sb.env,
    });
    expect(credit.code, credit.stderr).toBe(0);
    const balance = await runJson<{ balance: number }>(sb, ['wallet', 'balance', c.id]);
    expect(balance.data).toMatchObject({ balance: 5000 });
  });

  it('an unknown customer is exit 1 naming the id; a malformed one exit 2 before sending', async () => {
    const missing = await run(['customers', 'get', 'cust_000000000000Zz'], { env: sb.env });
    expect(missing.code).toBe(1);
    const malformed = await run(['customers', 'get', 'pay_123'], { env: sb.env });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('customer id must look like cust_');
  });
});
