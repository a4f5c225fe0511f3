import type * as RunModule from './run';

/**
 * Loads dist/run.cjs (the program past --version and the baked helps) as Node's CommonJS loader would,
 * but compiled with a V8 code cache that payctl makes itself after a run, in the user's cache directory.
 * Node's own compile cache is made right after a file is compiled, before it runs, so it holds only
 * the functions V8 compiles up front: every call compiled the rest of what it ran again, about a sixth
 * of its CPU (docs/decisions.md). A cache made at exit holds them too. It is code, so it is only read
 * from a directory this user owns that no one else may write, and written there as 0600.
 */
export function loadRun(runPath: string): typeof RunModule {
  const fs = process.getBuiltinModule('node:fs');
  const vm = process.getBuiltinModule('node:vm');
  const { dirname } = process.getBuiltinModule('node:path');
  const { createRequire } = process.getBuiltinModule('node:module');
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  const source = fs.readFileSync(runPath, 'utf8');
  const cachePath = cacheFileOf(runPath, source.length);
  let cachedData: Buffer | undefined;
  try {
    if (cachePath) cachedData = fs.readFileSync(cachePath);
  } catch {
    // No cache yet: this run makes it.
  }
  // The wrapper on a line of its own (lineOffset -1): line and column numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: pathToFileURL(runPath).href,
    lineOffset: -1,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachePath && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => saveCache(cachePath, () => script.createCachedData()));
  const mod = { exports: {} as typeof RunModule };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    mod.exports,
    createRequire(runPath),
    mod,
    runPath,
    dirname(runPath),
  );
  return mod.exports;
}

/**
 * The cache file of this build on this Node, or undefined where none may be used. Named after what
 * makes a cache valid (the file's size and time, Node's version): V8 checks the flags and the
 * source's length itself, not its content.
 */
function cacheFileOf(runPath: string, length: number): string | undefined {
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
    const { mtimeMs } = fs.statSync(runPath);
    return join(dir, `run-${process.version}-${process.arch}-${length}-${Math.trunc(mtimeMs)}.cache`);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (a temporary file renamed), so a run at the same moment reads no half. */
function saveCache(path: string, make: () => Buffer) {
  const fs = process.getBuiltinModule('node:fs');
  const { basename, dirname, join } = process.getBuiltinModule('node:path');
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, make(), { mode: 0o600 });
    fs.renameSync(tmp, path);
    // Caches of other builds on this Node are of no further use (another Node's stay: nvm users switch).
    const dir = dirname(path);
    const mine = `run-${process.version}-${process.arch}-`;
    for (const f of fs.readdirSync(dir))
      if (f.startsWith(mine) && f.endsWith('.cache') && f !== basename(path)) fs.rmSync(join(dir, f), { force: true });
  } catch {
    // A cache is only ever a saving (a full disk, a read-only home): the run's outcome stands as it is.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* nothing more to do */
    }
  }
}
