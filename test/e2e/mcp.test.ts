import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, assertNoSecret, run, sandboxForFile } from './harness';

type Rec = Record<string, unknown>;
type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Rec };

const sb = sandboxForFile();

async function capturedPayment(): Promise<string> {
  const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
  const id = payment_ids[0]!;
  expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
  return id;
}

const refunded = async (id: string) => Number((await sb.api<Rec>('GET', `/payments/${id}`)).body.amount_refunded);

/** The SDK's own client, talking to the built bin over stdio, as an assistant's host would. */
async function connect(
  args: string[],
  elicit?: (message: string) => boolean,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...sb.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client(
    { name: 'payctl-e2e', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (req) =>
      elicit(String(req.params.message)) ? { action: 'accept', content: { send: true } } : { action: 'decline' },
    );
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** `use` with a connected client, closed afterwards whatever happens. */
async function withMcp(args: string[], use: (client: Client) => Promise<void>, elicit?: (message: string) => boolean) {
  const { client } = await connect(args, elicit);
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

const call = async (client: Client, name: string, args: Rec) => {
  const res = (await client.callTool({ name, arguments: args })) as Result;
  for (const c of res.content) assertNoSecret(c.text, `mcp ${name} result`);
  return res;
};

describe('payctl mcp', () => {
  it('read-only by default: write tools are absent, and refused when called anyway', async () => {
    await withMcp([], async (client) => {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['payments_get', 'payments_list', 'wallet_statement']));
      expect(names).not.toContain('payments_refund');
      expect(names).not.toContain('confirm');
      const id = await capturedPayment();
      const res = await call(client, 'payments_refund', { payment_id: id, amount: 100 });
      expect(res.isError).toBe(true);
      expect(res.content[0]!.text).toMatch(/read-only.*--allow-writes/);
      expect(await refunded(id)).toBe(0);
    });
  });

  it('plan, confirm once, replay refused, cap refused, all in `payctl mcp log`', async () => {
    await withMcp(['--allow-writes', '--max-total', '30000'], async (client) => {
      const tools = (await client.listTools()).tools;
      const refundTool = tools.find((t) => t.name === 'payments_refund')!;
      expect(refundTool.inputSchema.properties).toHaveProperty('payment_id');
      expect(refundTool.inputSchema.required).toEqual(['payment_id']);
      expect(tools.map((t) => t.name)).toContain('confirm');

      const id = await capturedPayment();
      const got = await call(client, 'payments_get', { payment_id: id });
      expect(got.structuredContent).toMatchObject({ id, status: 'captured', amount: 50000 });

      const plan = await call(client, 'payments_refund', { payment_id: id, amount: 20000 });
      expect(plan.isError, plan.content[0]!.text).toBeFalsy();
      const planned = plan.structuredContent as { token: string; plan: Rec; outcome: string };
      expect(planned.outcome).toBe('planned');
      expect(planned.plan).toMatchObject({ amount: 20000, amountText: '₹200.00 (20000 paise)' });
      expect(planned.plan.state).toMatchObject({ status: 'captured', amount_refunded: 0 });
      expect(await refunded(id)).toBe(0); // a plan moves nothing

      const done = await call(client, 'confirm', { token: planned.token });
      expect(done.isError, done.content[0]!.text).toBeFalsy();
      const refund = (done.structuredContent as { result: Rec }).result;
      expect(refund).toMatchObject({ entity: 'refund', amount: 20000, payment_id: id });
      expect(await refunded(id)).toBe(20000);

      const listed = await call(client, 'refunds_list', { payment_id: id });
      expect((listed.structuredContent as { items: Rec[] }).items.map((r) => r.id)).toEqual([refund.id]);
      const fetched = await call(client, 'refunds_get', { refund_id: refund.id });
      expect(fetched.structuredContent).toMatchObject({ id: refund.id, amount: 20000 });

      const replay = await call(client, 'confirm', { token: planned.token });
      expect(replay.isError).toBe(true);
      expect(replay.content[0]!.text).toMatch(/already used/);
      expect(await refunded(id)).toBe(20000);

      const over = await call(client, 'payments_refund', { payment_id: id, amount: 30000 });
      expect(over.isError).toBe(true);
      expect(over.content[0]!.text).toMatch(/--max-total 30000/);
      expect(await refunded(id)).toBe(20000);

      const badId = await call(client, 'payments_refund', { payment_id: 'pay_../../x', amount: 100 });
      expect(badId.isError).toBe(true);
      expect(badId.content[0]!.text).toMatch(/payment id must look like pay_/);
      const badAmount = await call(client, 'payments_refund', { payment_id: id, amount: 1.5 });
      expect(badAmount.isError).toBe(true);
      expect(badAmount.content[0]!.text).toMatch(/^amount: /);

      const log = await run(['mcp', 'log', '-o', 'json'], { env: sb.env });
      expect(log.code, log.stderr).toBe(0);
      const rows = JSON.parse(log.stdout) as Rec[];
      const events = rows.map((r) => `${r.tool}:${r.event}`);
      expect(events).toEqual(
        expect.arrayContaining([
          'payments_refund:planned',
          'payments_refund:sending',
          'payments_refund:done',
          'confirm:refused',
          'payments_refund:refused',
        ]),
      );
      expect(rows.find((r) => r.event === 'done')).toMatchObject({ result_id: refund.id, amount: 20000 });
      expect(statSync(join(sb.home, 'mcp-audit.ndjson')).mode & 0o777).toBe(0o600);
      const table = await run(['mcp', 'log', '-o', 'table'], { env: sb.env });
      expect(table.stdout).toMatch(/payments_refund\s+done\s+₹200\.00/);
    });
  });

  it('a client looping on the same refund moves at most what the caps allow', async () => {
    await withMcp(['--allow-writes', '--max-total', '5000', '--max-writes', '3'], async (client) => {
      const id = await capturedPayment();
      let done = 0;
      for (let i = 0; i < 50; i++) {
        const plan = await call(client, 'payments_refund', { payment_id: id, amount: 1000 });
        const token = (plan.structuredContent as { token?: string } | undefined)?.token;
        if (!token) continue;
        const res = await call(client, 'confirm', { token });
        if (!res.isError) done++;
        await call(client, 'confirm', { token }); // a replay of each
      }
      expect(done).toBe(3);
      expect(await refunded(id)).toBe(3000);
    });
  });

  it('an expired token sends nothing', async () => {
    await withMcp(['--allow-writes', '--token-ttl', '1'], async (client) => {
      const id = await capturedPayment();
      const plan = await call(client, 'payments_refund', { payment_id: id, amount: 1000 });
      const token = (plan.structuredContent as { token: string }).token;
      const expires = Date.parse((plan.structuredContent as { expires_at: string }).expires_at);
      await new Promise((r) => setTimeout(r, Math.max(0, expires - Date.now()) + 50));
      const res = await call(client, 'confirm', { token });
      expect(res.isError).toBe(true);
      expect(res.content[0]!.text).toMatch(/expired/);
      expect(await refunded(id)).toBe(0);
    });
  });

  it('a client that can ask its person: the person answers, no token is handed to the model', async () => {
    const asked: string[] = [];
    let answer = false;
    await withMcp(
      ['--allow-writes'],
      async (client) => {
        const id = await capturedPayment();
        const declined = await call(client, 'payments_refund', { payment_id: id, amount: 1500 });
        expect(declined.structuredContent).toMatchObject({ outcome: 'declined' });
        expect(declined.structuredContent).not.toHaveProperty('token');
        expect(await refunded(id)).toBe(0);
        answer = true;
        const sent = await call(client, 'payments_refund', { payment_id: id, amount: 1500 });
        expect(sent.structuredContent).toMatchObject({ outcome: 'done', result: { amount: 1500 } });
        expect(await refunded(id)).toBe(1500);
        expect(asked[0]).toMatch(/₹15\.00 \(1500 paise\)/);
      },
      (message) => {
        asked.push(message);
        return answer;
      },
    );
  });
});
