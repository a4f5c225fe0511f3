import * as z from 'zod/mini';
import type { AdminDeps } from './admin';
import { parse } from './admin';
import { existingSnapshot, deleteSnapshot, listSnapshots, loadSnapshot, restore, saveSnapshot } from './snapshots';

const SnapshotBody = z.object({ name: z.string().check(z.maxLength(64)) });
const AccountBody = z.object({
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(80))),
  from: z.optional(z.string().check(z.maxLength(64))),
  webhook: z.optional(z.string().check(z.regex(/^https?:\/\/\S+$/, { message: 'is not an http(s) URL' }))),
});

/** The admin routes of accounts and snapshots: each acts on the account whose key made the request. */
export const accountRoutes = {
  /** A new account, forked from a snapshot of the calling account with `from`; its keys are in the answer. */
  createAccount(body: unknown, { account, accounts }: AdminDeps) {
    const input = parse(AccountBody, body);
    const source = input.from === undefined ? undefined : existingSnapshot(account, input.from, 'from');
    const made = accounts.create(
      { name: input.name, webhook: input.webhook },
      source ? (store) => restore(store, source) : undefined,
    );
    return {
      entity: 'sandbox_account',
      id: made.id,
      name: made.name,
      key_id: made.keyId,
      key_secret: made.keySecret,
      webhook_secret: made.webhookSecret,
      ...(input.from === undefined ? {} : { forked_from: input.from }),
      ...(input.webhook === undefined ? {} : { webhook: input.webhook }),
    };
  },
  saveSnapshot: (body: unknown, { account }: AdminDeps) => saveSnapshot(account, parse(SnapshotBody, body).name),
  loadSnapshot: (body: unknown, { account }: AdminDeps) => loadSnapshot(account, parse(SnapshotBody, body).name),
  snapshots: (_body: unknown, { account }: AdminDeps) => ({ items: listSnapshots(account) }),
  deleteSnapshot: (body: unknown, { account }: AdminDeps) => deleteSnapshot(account, parse(SnapshotBody, body).name),
};
