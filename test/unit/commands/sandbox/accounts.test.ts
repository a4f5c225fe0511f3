import { describe, expect, it } from 'vitest';
import {
  createAccount,
  deleteSnapshot,
  listSnapshots,
  loadSnapshot,
  saveSnapshot,
} from '../../../../src/commands/sandbox/handlers';
import { fakeContext, expectUsageError } from '../fake-context';

const account = {
  entity: 'sandbox_account',
  id: 'acc_Kq2vX9pLm4Tz8w',
  name: 'ci',
  key_id: 'rzp_test_Kq2vX9pLm4Tz8w',
  key_secret: 'fresh-account-secret',
  webhook_secret: 'whsec_fresh',
};
/** 2026-11-23T10:00:00Z: shown in the fake context's zone (Asia/Kolkata). */
const snapshot = { name: 'mid', clock: Date.parse('2026-11-23T10:00:00Z') / 1000, records: 12, bytes: 32768 };

describe('sandbox account create', () => {
  it.each([
    ['no options', {}, {}],
    ['--name', { name: ' ci ' }, { name: 'ci' }],
    ['--from', { from: 'mid' }, { from: 'mid' }],
    ['--webhook', { webhook: 'http://127.0.0.1:9000/hooks' }, { webhook: 'http://127.0.0.1:9000/hooks' }],
  ])('%s: one admin POST with that body; the account with its keys', async (_name, opts, body) => {
    const f = fakeContext({ routes: { 'POST /_sandbox/accounts': { body: account } } });
    const result = await createAccount(opts, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'POST', path: '/_sandbox/accounts', body })]);
    expect(result).toEqual({ type: 'one', kind: 'generic', data: account });
  });

  it.each([
    ['an empty --name', { name: '  ' }, /--name/],
    ['a --from that is a path', { from: '../mid' }, /--from must be/],
    ['a --webhook that is not a URL', { webhook: 'not a url' }, /--webhook/],
  ])('%s: a usage error, nothing sent', async (_name, opts, message) => {
    await expectUsageError(createAccount, opts, message);
  });
});

describe('sandbox snapshot', () => {
  it.each([
    ['save', saveSnapshot, 'POST /_sandbox/snapshots/save'],
    ['load', loadSnapshot, 'POST /_sandbox/snapshots/load'],
  ] as const)('%s NAME: one admin POST; the snapshot with its clock in the zone', async (_verb, handler, route) => {
    const f = fakeContext({ routes: { [route]: { body: snapshot } } });
    const result = await handler({ name: 'mid' }, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ path: route.split(' ')[1], body: { name: 'mid' } })]);
    expect(result).toEqual({
      type: 'one',
      kind: 'generic',
      data: { name: 'mid', clock: '2026-11-23 15:30:00', records: 12, bytes: 32768 },
    });
  });

  it('list: every snapshot of the account', async () => {
    const f = fakeContext({ routes: { 'GET /_sandbox/snapshots': { body: { items: [snapshot] } } } });
    const result = await listSnapshots({}, f.ctx);
    expect(result).toMatchObject({ type: 'many', kind: 'generic', items: [{ name: 'mid', records: 12 }] });
  });

  it('delete NAME: says it is gone', async () => {
    const f = fakeContext({ routes: { 'POST /_sandbox/snapshots/delete': { body: { name: 'mid', deleted: true } } } });
    expect(await deleteSnapshot({ name: 'mid' }, f.ctx)).toEqual({ type: 'done', message: 'snapshot mid deleted' });
  });

  it.each([
    ['save', saveSnapshot],
    ['load', loadSnapshot],
    ['delete', deleteSnapshot],
  ] as const)('%s of a name with a slash or a space: a usage error, nothing sent', async (_verb, handler) => {
    await expectUsageError(handler, { name: 'a/b' }, /NAME must be/);
    await expectUsageError(handler, { name: 'a b' }, /NAME must be/);
  });
});
