import { describe, expect, it } from 'vitest';
import {
  addProfile,
  listProfiles,
  removeProfile,
  showProfile,
  testProfile,
  useProfile,
} from '../../../../src/commands/profile/handlers';
import type { AddProfileOptions } from '../../../../src/commands/profile/handlers';
import type { Profile } from '../../../../src/config/profiles';
import { UsageError } from '../../../../src/contract/errors';
import { fakeContext } from '../fake-context';
import type { FakeOptions } from '../fake-context';

const SECRET = 'unit-profile-secret-9f3k';
const profile = (o: Partial<Profile> = {}): Profile => ({
  key_id: 'rzp_test_unit',
  key_secret: SECRET,
  base_url: 'https://api.example.com/v1',
  live: false,
  ...o,
});
/** A context whose profile store already holds `names` (the first is the default). */
async function withProfiles(names: string[], opts: FakeOptions = {}) {
  const f = fakeContext(opts);
  const store = await f.ctx.profiles();
  for (const [i, name] of names.entries()) await store.save(name, profile(), i === 0);
  return { ...f, store };
}
const add = (o: Partial<AddProfileOptions> = {}): AddProfileOptions => ({
  name: 'ci',
  keyId: 'rzp_test_ci',
  keySecretStdin: true,
  live: false,
  makeDefault: false,
  ...o,
});
const shown = (result: unknown) => JSON.stringify(result);

describe('profile add', () => {
  it('saves the secret from stdin, shows it masked, names the file', async () => {
    const f = fakeContext({ stdin: `${SECRET}\n`, settings: { baseUrl: 'https://api.example.com/v1' } });
    const result = await addProfile(add({ live: true, makeDefault: true }), f.ctx);
    const store = await f.ctx.profiles();
    expect(store.get('ci')).toEqual(profile({ key_id: 'rzp_test_ci', live: true }));
    expect(store.defaultName).toBe('ci');
    expect(result).toMatchObject({ type: 'one', kind: 'profile', data: { name: 'ci', live: true, default: true } });
    expect(shown(result)).not.toContain(SECRET);
    expect(f.stderr()).toBe(`profile ci saved to ${store.path}\n`);
  });

  it('with --key-secret-command stores the command, never asks or reads a secret, and says where it comes from', async () => {
    const f = fakeContext({ settings: { keyEnv: { keySecret: SECRET }, baseUrl: 'https://api.example.com/v1' } });
    const command = 'op read op://ops/payments/secret';
    const result = await addProfile(add({ keySecretStdin: false, keySecretCommand: ` ${command} ` }), f.ctx);
    const stored = (await f.ctx.profiles()).get('ci');
    expect(stored).toEqual({
      key_id: 'rzp_test_ci',
      key_secret_command: command,
      base_url: 'https://api.example.com/v1',
      live: false,
    });
    expect(result).toMatchObject({ data: { secret_from: 'command', key_secret: `from command: ${command}` } });
    const show = await showProfile({ name: 'ci' }, f.ctx);
    expect(show).toMatchObject({ data: { secret_from: 'command', key_secret_command: command } });
  });

  it.each([
    [{ keySecretCommand: '  ' }, /--key-secret-command is empty/],
    [{ keySecretCommand: 'pass show x', keySecretStdin: true }, /pick one/],
    [
      { caFile: '/nonexistent/company-ca.pem' },
      /cannot read the CA file \/nonexistent\/company-ca\.pem \(--ca-file\): ENOENT/,
    ],
  ])('%j: a usage error, nothing saved', async (o, message) => {
    const f = fakeContext({ stdin: SECRET, settings: { baseUrl: 'https://api.example.com/v1' } });
    await expect(addProfile(add(o), f.ctx)).rejects.toThrow(message);
    expect((await f.ctx.profiles()).list()).toEqual([]);
  });

  it('takes the secret from PAYCTL_KEY_SECRET without asking', async () => {
    const f = fakeContext({ settings: { keyEnv: { keySecret: SECRET }, baseUrl: 'https://api.example.com/v1' } });
    await addProfile(add({ keySecretStdin: false }), f.ctx);
    expect((await f.ctx.profiles()).get('ci')?.key_secret).toBe(SECRET);
  });

  it.each([
    ['a bad name', add({ name: '-x' }), { baseUrl: 'https://api.example.com/v1' }, SECRET, /profile name must be/],
    ['a short key id', add({ keyId: 'rz' }), { baseUrl: 'https://api.example.com/v1' }, SECRET, /--key-id must be/],
    ['no key id, no terminal', add({ keyId: undefined }), {}, SECRET, /missing --key-id \(no terminal/],
    ['no base URL, no terminal', add(), {}, SECRET, /missing --base-url/],
    ['a base URL that is not one', add(), { baseUrl: 'api.example.com' }, SECRET, /--base-url/],
    ['an empty secret on stdin', add(), { baseUrl: 'https://api.example.com/v1' }, '\n', /the key secret is empty/],
    [
      'no secret anywhere, no terminal',
      add({ keySecretStdin: false }),
      { baseUrl: 'https://api.example.com/v1' },
      '',
      /missing key secret \(--key-secret-stdin, --key-secret-command or PAYCTL_KEY_SECRET\)/,
    ],
  ])('%s: a usage error, nothing saved', async (_name, opts, settings, stdin, message) => {
    const f = fakeContext({ stdin, settings });
    await expect(addProfile(opts, f.ctx)).rejects.toThrow(UsageError);
    await expect(addProfile(opts, f.ctx)).rejects.toThrow(message);
    expect((await f.ctx.profiles()).list()).toEqual([]);
  });
});

describe('profile list and show', () => {
  it('list: every profile, the default marked, secrets masked', async () => {
    const f = await withProfiles(['prod', 'ci']);
    const result = await listProfiles({}, f.ctx);
    expect(result).toMatchObject({
      type: 'many',
      items: [
        { name: 'prod', default: true },
        { name: 'ci', default: false },
      ],
    });
    expect(shown(result)).not.toContain(SECRET);
  });

  it.each([
    ['a name', { name: 'ci' }, {}, 'ci'],
    ['no name: -p or PAYCTL_PROFILE (see settings.test.ts)', {}, { settings: { profile: 'ci' } }, 'ci'],
    ['no name: the default', {}, {}, 'prod'],
  ])('show with %s', async (_name, opts, fake, name) => {
    const f = await withProfiles(['prod', 'ci'], fake);
    const result = await showProfile(opts, f.ctx);
    expect(result).toMatchObject({ type: 'one', kind: 'profile', data: { name, key_id: 'rzp_test_unit' } });
    expect(shown(result)).not.toContain(SECRET);
  });

  it.each([
    ['an unknown name', ['prod'], { name: 'nope' }, /no profile named "nope"/],
    ['no name and no default', [], {}, /no default profile/],
  ])('show with %s: a usage error', async (_name, names, opts, message) => {
    const f = await withProfiles(names);
    await expect(showProfile(opts, f.ctx)).rejects.toThrow(message);
  });
});

describe('profile use and remove', () => {
  it('use: makes the named profile the default', async () => {
    const f = await withProfiles(['prod', 'ci']);
    expect(await useProfile({ name: 'ci' }, f.ctx)).toEqual({ type: 'done', message: 'default profile is now ci' });
    expect(f.store.defaultName).toBe('ci');
  });

  it('remove: deletes the named profile, keeps the others', async () => {
    const f = await withProfiles(['prod', 'ci']);
    expect(await removeProfile({ name: 'ci' }, f.ctx)).toEqual({ type: 'done', message: 'profile ci removed' });
    expect(f.store.list().map((p) => p.name)).toEqual(['prod']);
    expect(f.store.defaultName).toBe('prod');
  });

  it.each([
    ['use', useProfile],
    ['remove', removeProfile],
  ])('%s: an unknown or malformed name is a usage error and changes nothing', async (_verb, handler) => {
    const f = await withProfiles(['prod', 'ci']);
    await expect(handler({ name: 'nope' }, f.ctx)).rejects.toThrow(
      /no profile named "nope": see `payctl profile list`/,
    );
    await expect(handler({ name: '../etc' }, f.ctx)).rejects.toThrow(/profile name must be/);
    expect(f.store.list().map((p) => p.name)).toEqual(['prod', 'ci']);
    expect(f.store.defaultName).toBe('prod');
  });
});

describe('profile test', () => {
  const page = { entity: 'collection', count: 0, items: [] };

  it('reads one order with the key and says where it was accepted', async () => {
    const f = fakeContext({ routes: { 'GET /orders': { body: page } } });
    const result = await testProfile({}, f.ctx);
    expect(f.sent).toEqual([expect.objectContaining({ method: 'GET', path: '/orders', query: { count: 1 } })]);
    expect(result).toEqual({ type: 'done', message: 'env works: http://127.0.0.1:9/v1 accepted the key in 0 ms' });
  });

  it('a refused key: the service error goes up', async () => {
    const refused = { error: { code: 'BAD_REQUEST_ERROR', description: 'The api key provided is invalid' } };
    const f = fakeContext({ routes: { 'GET /orders': { status: 401, body: refused } } });
    await expect(testProfile({ name: 'prod' }, f.ctx)).rejects.toThrow(/api key provided is invalid/);
  });

  it('a malformed name: a usage error, nothing sent', async () => {
    const f = fakeContext();
    await expect(testProfile({ name: 'no spaces' }, f.ctx)).rejects.toThrow(UsageError);
    expect(f.sent).toHaveLength(0);
  });
});
