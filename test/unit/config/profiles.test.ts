import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/contract/errors';
import { ProfileStore } from '../../../src/config/profiles';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-profiles-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const profile = {
  key_id: 'rzp_test_x',
  key_secret: 'unit-secret-123',
  base_url: 'https://api.example.com/v1',
  live: false,
};

describe('the profile store', () => {
  it('writes its file 0600 and keeps it so', async () => {
    const dir = fresh();
    const store = new ProfileStore(dir);
    await store.save('a', profile, false);
    await store.save('b', profile, true);
    await store.setDefault('a');
    await store.remove('b');
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(new ProfileStore(dir).get('a')).toEqual(profile);
  });

  it.each([
    ['cut short', (t: string) => t.slice(0, 40)],
    ['empty', () => ''],
    ['profiles not an object', () => '{"profiles":5}'],
    ['profiles null', () => '{"profiles":null}'],
  ])('a damaged file (%s) is one usage error naming it and what to do', async (_what, spoil) => {
    const dir = fresh();
    const store = new ProfileStore(dir);
    await store.save('a', profile, true);
    writeFileSync(store.path, spoil(readFileSync(store.path, 'utf8')));
    const attempt = () => {
      const s = new ProfileStore(dir);
      return [s.defaultName, s.get('a'), s.list()];
    };
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(`the config file ${store.path} is damaged`);
    expect(attempt).toThrow(/fix it, or move it aside/);
    expect(attempt).not.toThrow(/position/);
  });

  it('an incomplete profile names what is missing instead of failing later', () => {
    const dir = fresh();
    const store = new ProfileStore(dir);
    writeFileSync(store.path, JSON.stringify({ default: 'a', profiles: { a: { key_id: 'k' } } }));
    expect(() => store.get('a')).toThrow(/profile "a" in .* is incomplete \(no key_secret, base_url\)/);
  });
});
