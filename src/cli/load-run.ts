import type * as RunModule from './run';

/** Where the rest of the program is: dist/run.cjs beside dist/cli.cjs, or an asset of the single executable. */
export type RunSource = { file: string } | { asset: string };

/**
 * Loads the program past --version and the baked helps as Node's CommonJS loader would, but compiled
 * with a V8 code cache that payctl makes itself after a run, in the user's cache directory. Node's own
 * compile cache (and the single executable's) is made right after the script is compiled, before it
 * runs, so it holds only the functions V8 compiles up front: every call compiled the rest of what it
 * ran again, about a sixth of its CPU (docs/decisions.md). A cache made at exit holds them too: those of
 * the command that ran, so each command (`payments get`, named by `command`) has a cache of its own,
 * made by its first run. It is code, so it is only read from a directory this user owns that no one
 * else may write, and written there as 0600.
 */
export function loadRun(from: RunSource, command: readonly string[]): typeof RunModule {
  const vm = process.getBuiltinModule('node:vm');
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  const { dirname } = process.getBuiltinModule('node:path');
  const { source, filename, identity, requireFn, path } = 'file' in from ? fromFile(from.file) : fromAsset(from.asset);
  const cache = cacheFileOf(identity, source.length, command);
  let cachedData: Buffer | undefined;
  try {
    if (cache) cachedData = process.getBuiltinModule('node:fs').readFileSync(cache.path);
  } catch {
    // No cache yet: this run makes it.
  }
  // The wrapper on a line of its own (lineOffset -1): line and column numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: filename ?? pathToFileURL(path).href,
    lineOffset: -1,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cache && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => saveCache(cache, () => script.createCachedData()));
  const mod = { exports: {} as typeof RunModule };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, requireFn, mod, path, dirname(path));
  return mod.exports;
}

/** What a cache is made for: a kind (its files' prefix), and the file whose size and time change with each build. */
interface Identity {
  kind: 'run' | 'exe';
  path: string;
}

function fromFile(path: string) {
  const { createRequire } = process.getBuiltinModule('node:module');
  return {
    source: process.getBuiltinModule('node:fs').readFileSync(path, 'utf8'),
    filename: undefined,
    identity: { kind: 'run', path } satisfies Identity,
    requireFn: createRequire(path),
    path,
  };
}

/**
 * The single executable's program is an asset of the executable, bundled whole: it requires built-ins
 * only. Its cache is named after the executable (a new build is a new file).
 */
function fromAsset(name: string) {
  const sea = process.getBuiltinModule('node:sea');
  const path = `${process.execPath}/${name}`;
  return {
    source: sea.getAsset(name, 'utf8'),
    filename: path,
    identity: { kind: 'exe', path: process.execPath } satisfies Identity,
    requireFn: (id: string) => {
      const builtin = process.getBuiltinModule(id);
      if (!builtin) throw new Error(`the single executable has no module ${id}`);
      return builtin;
    },
    path,
  };
}

/**
 * The cache file of this build on this Node for this command, or undefined where none may be used.
 * Named after what makes a cache valid (the build's size and time, Node's version): V8 checks the flags
 * and the source's length itself, not its content. A word that is not a command's name (a typo, an
 * option's value) is named by none.
 */
function cacheFileOf({ kind, path }: Identity, length: number, command: readonly string[]) {
  const fs = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const { homedir } = process.getBuiltinModule('node:os');
  try {
    const base = process.env.XDG_CACHE_HOME || join(process.env.HOME || homedir(), '.cache');
    const dir = join(base, 'payctl');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    const uid = process.getuid?.();
    if ((uid !== undefined && st.uid !== uid) || st.mode & 0o022) return undefined;
    const { size, mtimeMs } = fs.statSync(path);
    const build = kind === 'run' ? `${length}-${Math.trunc(mtimeMs)}` : `${length}-${size}-${Math.trunc(mtimeMs)}`;
    const name = command.map((w) => (/^[a-z][a-z0-9-]{0,23}$/.test(w) ? w : '')).join('-');
    const ours = `${kind}-${process.version}-${process.arch}-`;
    return { path: join(dir, `${ours}${build}-${name}.cache`), ours, build: `${ours}${build}-` };
  } catch {
    return undefined;
  }
}

/**
 * Written whole or not at all (a temporary file renamed), so a run at the same moment reads no half.
 * `ours` begins the names of this kind's caches on this Node, `build` those of this build.
 */
function saveCache({ path, ours, build }: { path: string; ours: string; build: string }, make: () => Buffer) {
  const fs = process.getBuiltinModule('node:fs');
  const { dirname, join } = process.getBuiltinModule('node:path');
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, make(), { mode: 0o600 });
    fs.renameSync(tmp, path);
    // Caches of other builds of this kind on this Node are of no further use (another Node's stay: nvm
    // users switch).
    const dir = dirname(path);
    for (const f of fs.readdirSync(dir))
      if (f.startsWith(ours) && f.endsWith('.cache') && !f.startsWith(build)) fs.rmSync(join(dir, f), { force: true });
  } catch {
    // A cache is only ever a saving (a full disk, a read-only home): the run's outcome stands as it is.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* nothing more to do */
    }
  }
}
