import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BIN } from './harness';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILTINS = fileURLToPath(new URL('./fixtures/builtins-loaded.cjs', import.meta.url));

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}
interface Meta {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/**
 * Every source and package module a payctl run evaluated and every other file it loaded, from Node's
 * own coverage of the process (NODE_V8_COVERAGE: each script's functions with the number of times each
 * ran); and every built-in it loaded, from Node's list (coverage misses those loaded as Node starts). In a dist/ file, a module the build wraps to run on
 * first use is a function named after the module's path (esbuild's lazy wrappers): evaluated if that
 * function ran. Any other module of the file (dist/meta.json lists them) runs with the file's top level.
 * A wrapper not reported counts as evaluated: a misread can only fail a test, never pass one.
 */
export function evaluatedBy(args: string[], env: Record<string, string> = {}): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-coverage-'));
  try {
    const builtins = join(dir, 'builtins.txt');
    const res = spawnSync(process.execPath, ['--require', BUILTINS, BIN, ...args], {
      env: {
        ...process.env,
        ...env,
        NODE_V8_COVERAGE: join(dir, 'coverage'),
        PAYCTL_BUILTINS_TRACE: builtins,
        PAYCTL_HOME: dir,
      },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    const scripts = readdirSync(join(dir, 'coverage')).flatMap(
      (f) => (JSON.parse(readFileSync(join(dir, 'coverage', f), 'utf8')) as { result: ScriptCoverage[] }).result,
    );
    const meta = JSON.parse(readFileSync(join(ROOT, 'dist/meta.json'), 'utf8')) as Meta;
    const seen = [
      ...scripts.flatMap((script) => modulesOf(script, meta)),
      ...readFileSync(builtins, 'utf8').trim().split('\n'),
    ];
    expect(seen, 'the coverage holds the entry file').toContain('dist/cli.cjs');
    return seen;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function modulesOf(script: ScriptCoverage, meta: Meta): string[] {
  if (!script.url.startsWith('file:')) return [];
  const file = fileURLToPath(script.url).slice(ROOT.length);
  const bundled = meta.outputs[file]?.inputs;
  if (!bundled) return [file];
  const ran = (f: FunctionCoverage) => f.ranges[0]!.count > 0;
  const topLevel = script.functions.find((f) => f.functionName === '' && f.ranges[0]!.startOffset === 0);
  if (!topLevel || !ran(topLevel)) return [];
  const modules = Object.keys(bundled).filter((m) => bundled[m]!.bytesInOutput > 0);
  const wrappers = script.functions.filter((f) => f.functionName in bundled);
  return [
    file,
    ...modules.filter((m) => {
      const own = wrappers.filter((f) => f.functionName === m);
      return own.length === 0 || own.some(ran);
    }),
  ];
}
