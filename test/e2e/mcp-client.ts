import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { BIN, assertNoSecret, clockEnv } from './harness';
import type { SandboxProcess } from './harness';

export type Rec = Record<string, unknown>;
export type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Rec };

/** The person behind an elicitation: answers yes or no to each question (it may wait first). */
export type Person = (message: string) => boolean | Promise<boolean>;

/** The SDK's own client, talking to the built bin over stdio, as an assistant's host would. */
export async function connect(
  args: string[],
  env: Record<string, string>,
  person?: Person,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...clockEnv(), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += String(d)));
  const client = new Client(
    { name: 'payctl-e2e', version: '1.0.0' },
    person ? { capabilities: { elicitation: { form: {} } } } : undefined,
  );
  if (person)
    client.setRequestHandler(ElicitRequestSchema, async (req) =>
      (await person(String(req.params.message)))
        ? { action: 'accept', content: { send: true } }
        : { action: 'decline' },
    );
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** `use` with a connected client, closed afterwards whatever happens. */
export async function withMcp(
  args: string[],
  env: Record<string, string>,
  use: (client: Client, stderr: () => string) => Promise<void>,
  person?: Person,
) {
  const { client, stderr } = await connect(args, env, person);
  try {
    await use(client, stderr);
  } finally {
    await client.close();
  }
}

/** A tool call; no registered secret may be in what comes back. */
export async function call(client: Client, name: string, args: Rec): Promise<Result> {
  const res = (await client.callTool({ name, arguments: args })) as Result;
  for (const c of res.content) assertNoSecret(c.text, `mcp ${name} result`);
  return res;
}

export const textOf = (res: Result) => res.content.map((c) => c.text).join('\n');
export const structured = <T = Rec>(res: Result) => res.structuredContent as T;

/** A payment of 50000 paise, captured through the service's own API. */
export async function capturedPayment(sb: SandboxProcess): Promise<string> {
  const { payment_ids } = await sb.admin<{ payment_ids: string[] }>('POST', '/seed', { authorized: 1 });
  const id = payment_ids[0]!;
  expect((await sb.api('POST', `/payments/${id}/capture`, { amount: 50000, currency: 'INR' })).status).toBe(200);
  return id;
}

export const refunded = async (sb: SandboxProcess, id: string) =>
  Number((await sb.api<Rec>('GET', `/payments/${id}`)).body.amount_refunded);

/** Plans a refund and confirms its token: the confirmation's result. */
export async function refundByToken(client: Client, args: Rec): Promise<Result> {
  const plan = await call(client, 'payments_refund', args);
  const token = structured<{ token?: string }>(plan)?.token;
  expect(token, textOf(plan)).toBeTruthy();
  return call(client, 'confirm', { token: token! });
}
