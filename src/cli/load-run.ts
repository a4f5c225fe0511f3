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
  return 'file' in from ? fromFile(from.file, command) : fromAssets(from.asset, command);
}

/** A script to run as a CommonJS module: its text, names, what its `require` gives, and its cache file. */
interface Script {
  source: string;
  /** The name in stack traces. */
  filename: string;
  /** Its `__filename`. */
  path: string;
  require: (id: string) => unknown;
  cache: CacheFile | undefined;
}

/** Compiles the script with its code cache (made at exit where there was none, or V8 refused it) and runs it. */
function evaluate<T>({ source, filename, path, require, cache }: Script): T {
  const vm = process.getBuiltinModule('node:vm');
  let cachedData: Buffer | undefined;
  try {
    if (cache) cachedData = process.getBuiltinModule('node:fs').readFileSync(cache.path);
  } catch {
    // No cache yet: this run makes it.
  }
  // The wrapper on a line of its own (lineOffset -1): line and column numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename,
    lineOffset: -1,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cache && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => saveCache(cache, () => script.createCachedData()));
  const mod = { exports: {} as T };
  const dir = process.getBuiltinModule('node:path').dirname(path);
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, require, mod, path, dir);
  return mod.exports;
}

function fromFile(path: string, command: readonly string[]): typeof RunModule {
  const source = process.getBuiltinModule('node:fs').readFileSync(path, 'utf8');
  return evaluate({
    source,
    filename: process.getBuiltinModule('node:url').pathToFileURL(path).href,
    path,
    require: process.getBuiltinModule('node:module').createRequire(path),
    cache: cacheFileOf({ kind: 'run', path }, source.length, command),
  });
}

/**
 * The single executable carries the npm package's files as its assets: `run.cjs`, `mcp-sdk.cjs`, and
 * each runtime dependency bundled as `node_modules/NAME.cjs`; what they require is a built-in or one
 * of them, each evaluated once. Their caches are named after the executable (a new build is a new
 * file); a dependency's after the dependency.
 */
function fromAssets(name: string, command: readonly string[]): typeof RunModule {
  const sea = process.getBuiltinModule('node:sea');
  const loaded = new Map<string, unknown>();
  const load = <T>(asset: string, key: readonly string[]): T => {
    const source = sea.getAsset(asset, 'utf8');
    const path = `${process.execPath}/${asset}`;
    const cache = cacheFileOf({ kind: 'exe', path: process.execPath }, source.length, key);
    return evaluate<T>({ source, filename: path, path, require, cache });
  };
  const require = (id: string): unknown => {
    const builtin = process.getBuiltinModule(id);
    if (builtin) return builtin;
    if (!loaded.has(id)) {
      const lib = id === './mcp-sdk.cjs' ? 'mcp-sdk' : id;
      const asset = lib === id ? `node_modules/${id}.cjs` : `${lib}.cjs`;
      const key = ['lib', lib.replace(/^@/, '').replace(/\W+/g, '-')];
      let exports: unknown;
      try {
        exports = load(asset, key);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_SINGLE_EXECUTABLE_APPLICATION_ASSET_NOT_FOUND')
          throw new Error(`the single executable has no module ${id}`, { cause: err });
        throw err;
      }
      loaded.set(id, exports);
    }
    return loaded.get(id);
  };
  return load<typeof RunModule>(name, command);
}

/** What a cache is made for: a kind (its files' prefix), and the file whose size and time change with each build. */
interface Identity {
  kind: 'run' | 'exe';
  path: string;
}

/** A cache's file; `ours` begins the names of this kind's caches on this Node, `build` those of this build. */
interface CacheFile {
  path: string;
  ours: string;
  build: string;
}

/**
 * The cache file of this build on this Node for this command, or undefined where none may be used.
 * Named after what makes a cache valid (the build's size and time, Node's version): V8 checks the flags
 * and the source's length itself, not its content. A word that is not a command's name (a typo, an
 * option's value) is named by none.
 */
function cacheFileOf({ kind, path }: Identity, length: number, command: readonly string[]): CacheFile | undefined {
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
    // The executable is one file for all its assets: its size and time name its build.
    const build = kind === 'run' ? `${length}-${Math.trunc(mtimeMs)}` : `${size}-${Math.trunc(mtimeMs)}`;
    const name = command.map((w) => (/^[a-z][a-z0-9-]{0,23}$/.test(w) ? w : '')).join('-');
    const ours = `${kind}-${process.version}-${process.arch}-`;
    return { path: join(dir, `${ours}${build}-${name}.cache`), ours, build: `${ours}${build}-` };
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (a temporary file renamed), so a run at the same moment reads no half. */
function saveCache({ path, ours, build }: CacheFile, make: () => Buffer) {
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
