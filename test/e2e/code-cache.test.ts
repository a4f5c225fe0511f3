import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess, scratchDir } from './harness';
import { pagedList, payment, standInForFile } from './stand-in';

/**
 * The installed program keeps a code cache of dist/run.cjs in the user's cache directory: made by the
 * first run, then read. It is code, so it lives only where no one else can write, as 0600, and a
 * cache V8 refuses (spoiled, another build's) changes nothing a user sees.
 */
const stand = standInForFile();
const dir = scratchDir('payctl-code-cache-');
const A = payment(1);

async function call(cacheHome: string) {
  stand.on('GET /payments/:id', () => ({ body: A }));
  const res = await runProcess(['payments', 'get', A.id, '-o', 'json'], {
    env: { ...stand.env, XDG_CACHE_HOME: cacheHome },
  });
  expect(res.code, res.stderr).toBe(0);
  expect(JSON.parse(res.stdout).id).toBe(A.id);
  expect(res.stderr).toBe('');
}

const cachesIn = (home: string) => readdirSync(join(home, 'payctl')).filter((f) => f.endsWith('.cache'));

describe('the code cache of the program', () => {
  it('is made by the first call as 0600 in a 0700 directory, then read and left as it is', async () => {
    const home = join(dir, 'fresh');
    await call(home);
    const [file] = cachesIn(home);
    expect(file).toMatch(/^run-v\d+\.\d+\.\d+-/);
    const path = join(home, 'payctl', file!);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'payctl')).mode & 0o777).toBe(0o700);
    const made = statSync(path).mtimeMs;
    await call(home);
    expect(statSync(path).mtimeMs).toBe(made);
  });

  it('each command has a cache of its own, made by its first run: another command leaves it as it is', async () => {
    const home = join(dir, 'commands');
    await call(home);
    stand.on('GET /payments', () => ({ body: { entity: 'collection', count: 1, items: [A] } }));
    const list = await runProcess(['--timeout', '5', 'payments', 'list', '--count', '1', '-o', 'json'], {
      env: { ...stand.env, XDG_CACHE_HOME: home },
    });
    expect(list.code, list.stderr).toBe(0);
    const files = cachesIn(home).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/-payments-get\.cache$/);
    expect(files[1]).toMatch(/-payments-list\.cache$/);
    const get = join(home, 'payctl', files[0]!);
    const made = statSync(get).mtimeMs;
    await call(home);
    expect(statSync(get).mtimeMs).toBe(made);
  });

  it("another Node's cache stays; another build's on this Node goes once this build's is made", async () => {
    const home = join(dir, 'others');
    mkdirSync(join(home, 'payctl'), { recursive: true, mode: 0o700 });
    const otherNode = join(home, 'payctl', 'run-v1.2.3-x64-10-20.cache');
    const otherBuild = join(home, 'payctl', `run-${process.version}-${process.arch}-10-20.cache`);
    for (const f of [otherNode, otherBuild]) writeFileSync(f, 'x', { mode: 0o600 });
    await call(home);
    expect(cachesIn(home)).toHaveLength(2);
    expect(cachesIn(home)).toContain('run-v1.2.3-x64-10-20.cache');
    expect(cachesIn(home)).not.toContain(`run-${process.version}-${process.arch}-10-20.cache`);
  });

  it('a run that writes a list leaves a cache its next run reads as it is', async () => {
    // Rows are written with V8 tuned for a long list (src/cli/render-result.ts); a cache made under
    // those flags would be refused by every later run, and made again at each one's exit.
    const home = join(dir, 'after-a-list');
    stand.on('GET /payments', pagedList(Array.from({ length: 250 }, (_, i) => payment(i))));
    const list = () =>
      runProcess(['payments', 'list', '--all', '--out', join(dir, 'list.csv')], {
        env: { ...stand.env, XDG_CACHE_HOME: home },
      });
    expect((await list()).code).toBe(0);
    const [file] = cachesIn(home);
    expect(file).toMatch(/-payments-list\.cache$/);
    const path = join(home, 'payctl', file!);
    const made = statSync(path).mtimeMs;
    for (let i = 0; i < 2; i++) {
      const res = await list();
      expect(res.code, res.stderr).toBe(0);
    }
    expect(statSync(path).mtimeMs).toBe(made);
  });

  it('a spoiled cache is refused by V8: the call is the same, and the cache is made again', async () => {
    const home = join(dir, 'spoiled');
    await call(home);
    const path = join(home, 'payctl', cachesIn(home)[0]!);
    writeFileSync(path, Buffer.alloc(4096, 7), { mode: 0o600 });
    await call(home);
    expect(statSync(path).size).toBeGreaterThan(4096);
  });

  it('in a directory others may write, no cache is read or made', async () => {
    const home = join(dir, 'shared');
    mkdirSync(join(home, 'payctl'), { recursive: true });
    chmodSync(join(home, 'payctl'), 0o777);
    await call(home);
    expect(cachesIn(home)).toEqual([]);
  });
});
