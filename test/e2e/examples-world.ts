import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import { NAMED_PERIODS, parseTimeInput } from '../../src/contract/values/time';
import { webhookWorld } from './examples-webhooks';
import { run } from './harness';
import type { SandboxProcess } from './harness';

/** The zone the examples run in (PAYCTL_TZ of their environment). */
export const EXAMPLES_TZ = 'Asia/Kolkata';

/**
 * What the documents' examples need before they run, made through the service's own API: fresh ids
 * in the state a command needs, the files an example reads, and the profiles it names.
 */
export function exampleWorld(sb: SandboxProcess, work: string) {
  const files = new Set<string>();
  const profiles = new Set<string>();
  const webhooks = webhookWorld(sb, work);
  const people = new Set<string>();
  let settlement: Promise<string> | undefined;

  const authorized = async () =>
    (await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 })).payment_ids[0]!;
  const captured = async () => {
    const id = await authorized();
    expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
    return id;
  };
  const created = async <T = { id: string }>(path: string, body: unknown): Promise<T> => {
    const res = await sb.api<T>('POST', path, body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  const customerWithBalance = async () => {
    const c = await sb.admin<{ id: string }>('POST', '/customers', {
      contact: '+919876543210',
      email: 'a@example.com',
      name: 'Readme',
    });
    await captured(); // the merchant balance the wallet credit comes from
    await created('/transfers', { customer_id: c.id, amount: 50000, currency: 'INR' });
    return c.id;
  };
  const plan = () =>
    created('/plans', { period: 'monthly', interval: 1, item: { name: 'Gold', amount: 49900, currency: 'INR' } });
  /** A subscription: created; authorised at checkout (active, its first cycle paid) for `pause`; then paused for `resume`. */
  const subscription = async (line: string) => {
    const sub = await created('/subscriptions', { plan_id: (await plan()).id, total_count: 12 });
    if (!/subscriptions (pause|resume)\b/.test(line)) return sub.id;
    await sb.admin('POST', '/subscriptions/authorize', { subscription_id: sub.id });
    if (/subscriptions resume\b/.test(line)) await created(`/subscriptions/${sub.id}/pause`, { pause_at: 'now' });
    return sub.id;
  };
  /** A deposit: a payment captured, then the sandbox clock past its T+2 settlement; made once, as reads only read it. */
  const settled = () =>
    (settlement ??= (async () => {
      await captured();
      await sb.admin('POST', '/clock/advance', { seconds: 3 * 86_400 });
      const list = await sb.api<{ items: Array<{ id: string }> }>('GET', '/settlements');
      expect(list.body.items.length, JSON.stringify(list.body)).toBeGreaterThan(0);
      return list.body.items[0]!.id;
    })());

  /** An item of the catalogue `sandbox seed` makes (the sandbox serves items read only). */
  const seededItem = async () => {
    let list = await sb.api<{ items: Array<{ id: string }> }>('GET', '/items');
    if (!list.body.items.length) {
      await sb.admin('POST', '/seed', { orders: 1 });
      list = await sb.api<{ items: Array<{ id: string }> }>('GET', '/items');
    }
    return list.body.items[0]!.id;
  };

  /** Swaps placeholder ids for sandbox ones, per id kind and per command. */
  async function substitute(line: string): Promise<string> {
    const ids = new Map<string, string>();
    const fresh = async (placeholder: string): Promise<string> => {
      const kind = placeholder.split('_')[0];
      if (kind === 'pay') return /payments capture/.test(line) ? authorized() : captured();
      if (kind === 'rfnd') return (await created(`/payments/${await captured()}/refund`, { amount: 1000 })).id;
      if (kind === 'order') return (await created('/orders', { amount: 10000, currency: 'INR' })).id;
      if (kind === 'cust') return customerWithBalance();
      if (kind === 'plan') return (await plan()).id;
      if (kind === 'sub') return subscription(line);
      if (kind === 'setl') return settled();
      if (kind === 'item') return seededItem();
      if (kind === 'evt') return webhooks.event();
      if (kind === 'wh') return webhooks.webhook();
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
      throw new Error(`an example uses ${placeholder}: teach test/e2e/examples-world.ts how to make a ${kind}_ id`);
    };
    // Any word shaped like an id (a prefix and 14 characters; not the Xs of a placeholder key id).
    // Customers first, so a payout's fund account belongs to its customer.
    const placeholders = [...new Set(line.match(/\b[a-z]+_(?!X+\b)[A-Za-z0-9]{14}\b/g) ?? [])].sort(
      (a, b) => Number(b.startsWith('cust_')) - Number(a.startsWith('cust_')),
    );
    for (const p of placeholders) ids.set(p, await fresh(p));
    let out = line;
    for (const [p, id] of ids) out = out.split(p).join(id);
    out = await onSandboxClock(out);
    // Profiles in the examples point at the service; here, at the sandbox.
    out = out.replace(/https:\/\/api\.example\.com\/v1/g, sb.baseUrl).replace(/rzp_(live|test)_X+/g, sb.keyId);
    return webhooks.substitute(out);
  }

  /**
   * A future point named relative to today (`--start-at next-month`) means today on the sandbox's clock,
   * which the examples run ahead (settlements need T+2): near a month's end, the real clock's next month
   * is already past there. Written as the date-time it names on that clock, in the examples' zone.
   */
  async function onSandboxClock(line: string): Promise<string> {
    const m = /--start-at\s+(\S+)/.exec(line);
    if (!m || !NAMED_PERIODS.has(m[1]!.toLowerCase())) return line;
    const clock = await sb.admin<{ now: number; offset: number }>('GET', '/clock');
    if (clock.offset === 0) return line;
    const at = parseTimeInput(m[1]!, { tz: EXAMPLES_TZ, nowMs: clock.now * 1000, bound: 'start' });
    if (!at.ok) throw new Error(at.error);
    const iso = DateTime.fromSeconds(at.value, { zone: EXAMPLES_TZ }).toISO({ suppressMilliseconds: true })!;
    return line.replace(m[0], `--start-at ${iso}`);
  }

  /** Files the examples read, written once (a resumed bulk run must see the same input). */
  async function writeInputs(line: string) {
    const make: Record<string, () => Promise<string>> = {
      'refunds.csv': async () => `payment_id,amount\n${await captured()},20000\n${await captured()},\n`,
      'ids.txt': async () => `${await authorized()}\n${await authorized()}\n`,
      'authorized.csv': async () => `payment_id\n${await authorized()}\n`,
      'capture.csv': async () =>
        `payment_id,amount,currency\n${await authorized()},50000,INR\n${await authorized()},,\n`,
      'customers.txt': async () => `${await customerWithBalance()}\n${await customerWithBalance()}\n`,
      'order.json': async () => JSON.stringify({ amount: 50000, currency: 'INR', receipt: 'rcpt-readme' }),
    };
    for (const name of line.match(/--input\s+(\S+)/g)?.map((m) => m.split(/\s+/)[1]!) ?? []) {
      if (name === '-' || files.has(name)) continue;
      files.add(name);
      // A file an earlier example of the same document wrote (`... > authorized.ndjson`) is read as it is.
      if (!make[name] && existsSync(join(work, name))) continue;
      if (!make[name]) throw new Error(`an example reads ${name}: teach test/e2e/examples-world.ts what to put in it`);
      writeFileSync(join(work, name), await make[name]());
    }
    // Bank statements (`--bank march.sta`): the sandbox's own for the example's month, in the format the name says.
    const month = /--month\s+(\d{4}-\d{2})/.exec(line)?.[1] ?? /--from\s+(\d{4}-\d{2})/.exec(line)?.[1];
    for (const [, name] of line.matchAll(/--bank\s+(\S+)/g)) {
      if (files.has(name!) || existsSync(join(work, name!))) continue;
      files.add(name!);
      const format = { sta: 'mt940', xml: 'camt053', csv: 'csv' }[name!.split('.').pop()!];
      if (!format || !month) throw new Error(`an example reads ${name}: name it .sta, .xml or .csv, with --month`);
      const written = await sb.admin<{ text: string }>('POST', '/bank-statement', { month, format });
      writeFileSync(join(work, name!), written.text);
    }
    await webhooks.writeFiles(line);
  }

  /** Someone an example looks payments up by (`--email priya@example.com`) has paid, once per sandbox state. */
  async function payers(line: string) {
    // An example that resets the sandbox forgets every payment: the next look-up needs its payer again.
    if (/\bsandbox reset\b/.test(line)) people.clear();
    for (const [, email] of line.matchAll(/--email\s+(\S+@\S+)/g)) {
      if (people.has(email!.toLowerCase())) continue;
      people.add(email!.toLowerCase());
      const order = await created('/orders', { amount: 120000, currency: 'INR', receipt: 'rcpt-support' });
      await sb.admin('POST', '/checkout', { order_id: order.id, email, contact: '+919812345678' });
    }
  }

  /** A profile an example uses, changes or removes (`profile remove old-test`) exists first. */
  async function storeProfiles(line: string) {
    for (const m of line.matchAll(/(?:-p|--profile|profile (?:use|show|test|remove))\s+([a-z][\w-]*)/g)) {
      const name = m[1]!;
      if (profiles.has(name) && !/profile remove/.test(line)) continue;
      const added = await run(
        ['profile', 'add', name, '--key-id', sb.keyId, '--base-url', sb.baseUrl, '--key-secret-stdin'],
        { env: { PAYCTL_HOME: sb.home }, input: sb.keySecret },
      );
      // Already there (a `profile add` example made it) is as good.
      expect(added.code === 0 || /already exists/.test(added.stderr), added.stderr).toBe(true);
      profiles.add(name);
    }
  }

  return { substitute, writeInputs, storeProfiles, payers, profiles, webhooks };
}
