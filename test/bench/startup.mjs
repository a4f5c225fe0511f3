// Start-up on one Node line: each of payctl's quick answers and one call, interleaved with their anchors
// (`node -e 0`, a bare node:http GET as CommonJS) and the single executable where it was built.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, ROOT, flag, home, measure, median, ms, sandbox, target, timeSync } from './common.mjs';

const BARE_GET_CJS = fileURLToPath(new URL('./bare-http-get.cjs', import.meta.url));
const BARE_UNDICI_GET = fileURLToPath(new URL('./bare-undici-get.cjs', import.meta.url));
// The single executable (npm run build:exe): measured on the line of the Node it carries.
const EXE = process.env.BENCH_EXE;

/**
 * The bare GET as an ES module: bare-http-get.cjs with its `require` turned into a static `import`, so
 * the two contenders run the same code and differ only in the module system that loads node:http.
 */
function bareGetModule() {
  const required = "const { request } = require('node:http');";
  const src = readFileSync(BARE_GET_CJS, 'utf8');
  if (!src.includes(required)) throw new Error(`${BARE_GET_CJS} no longer loads node:http with: ${required}`);
  const out = join(home, 'bare-http-get.mjs');
  writeFileSync(out, src.replace(required, "import { request } from 'node:http';"));
  return out;
}

/**
 * The bare undici GET as payctl would ship it: one CommonJS file bundled by esbuild, its compiled code
 * cached. What any HTTP layer on undici's public entry costs before a line of payctl runs: why payctl
 * calls through Node's own http (docs/decisions.md).
 */
function undiciBundle() {
  const out = join(home, 'bare-undici-get.bundle.cjs');
  const esbuild = join(ROOT, 'node_modules', '.bin', 'esbuild');
  const args = [
    BARE_UNDICI_GET,
    '--bundle',
    '--platform=node',
    '--format=cjs',
    '--minify-whitespace',
    '--minify-syntax',
  ];
  timeSync(esbuild, [...args, `--outfile=${out}`, '--log-level=warning']);
  return out;
}

export async function startup() {
  const runs = Number(flag('runs', 21));
  const sb = await sandbox();
  const {
    payment_ids: [paymentId],
  } = await sb.admin('/seed', { authorized: 1 });
  const apiEnv = {
    PAYCTL_BASE_URL: sb.info.base_url,
    PAYCTL_KEY_ID: sb.info.key_id,
    PAYCTL_KEY_SECRET: sb.info.key_secret,
  };
  // The stored-profile path as support staff run it: `payctl -p NAME`, the key in PAYCTL_HOME's config.
  timeSync(
    process.execPath,
    [BIN, 'profile', 'add', 'bench', '--key-id', sb.info.key_id, '--base-url', sb.info.base_url, '--key-secret-stdin'],
    { input: sb.info.key_secret, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const auth = 'Basic ' + Buffer.from(`${sb.info.key_id}:${sb.info.key_secret}`).toString('base64');
  const bareEnv = { BARE_URL: `${sb.info.base_url}/payments/${paymentId}`, BARE_AUTH: auth };
  const get = ['payments', 'get', paymentId, '-o', 'json'];
  // payctl runs as installed: through its bin's shebang.
  const contenders = {
    'node -e 0': [['-e', '0']],
    'bare GET as CommonJS': [[BARE_GET_CJS], bareEnv],
    'bare GET as ES module': [[bareGetModule()], bareEnv],
    'bare GET through undici': [[BARE_UNDICI_GET], bareEnv],
    'bare GET through undici, bundled': [[undiciBundle()], { ...bareEnv, NODE_COMPILE_CACHE: join(home, 'cache') }],
    'payctl --version': [[BIN, '--version'], {}, true],
    'payctl --help': [[BIN, '--help'], {}, true],
    'payctl payments --help': [[BIN, 'payments', '--help'], {}, true],
    'payments get (env key)': [[BIN, ...get], apiEnv, true],
    'payments get -p NAME': [[BIN, '-p', 'bench', ...get], {}, true],
    ...(EXE && {
      'exe --version': [[EXE, '--version'], {}, true],
      'exe --help': [[EXE, '--help'], {}, true],
      'exe payments get (env key)': [[EXE, ...get], apiEnv, true],
      'exe payments get -p NAME': [[EXE, '-p', 'bench', ...get], {}, true],
    }),
  };
  // The start-up targets, each against its anchor, judged on CPU time (user + system: the stable
  // figure on a shared machine; wall time is shown beside it). The floor of a one-call CLI is the bare
  // GET as CommonJS (an ES module's `import 'node:http'` builds a namespace of every export, which a
  // CLI does not have to pay for); the executable's call is held to the same call through node.
  const targets = {
    'payctl --version': ['node -e 0', 1.3],
    'payctl --help': ['node -e 0', 1.3],
    'payctl payments --help': ['node -e 0', 1.3],
    'payments get (env key)': ['bare GET as CommonJS', 2],
    'payments get -p NAME': ['bare GET as CommonJS', 2],
    'exe --version': ['node -e 0', 1.5],
    'exe --help': ['node -e 0', 1.5],
    'exe payments get (env key)': ['payments get (env key)', 1],
    'exe payments get -p NAME': ['payments get -p NAME', 1],
  };
  const results = Object.fromEntries(Object.keys(contenders).map((k) => [k, { ms: [], mib: [], cpu: [] }]));
  for (const [argv, extra, asInstalled] of Object.values(contenders)) measure(argv, extra, { asInstalled }); // warm caches once
  for (let i = 0; i < runs; i++) {
    for (const [name, [argv, extra, asInstalled]] of Object.entries(contenders)) {
      const r = measure(argv, extra, { asInstalled });
      for (const k of ['ms', 'mib', 'cpu']) results[name][k].push(r[k]);
    }
  }
  sb.stop();
  console.log(`startup on Node ${process.versions.node} (median of ${runs} interleaved runs: wall, CPU, peak RSS)`);
  const out = {};
  for (const [name, r] of Object.entries(results))
    out[name] = { ms: median(r.ms), mib: median(r.mib), cpu: median(r.cpu) };
  for (const [name, r] of Object.entries(out)) {
    const [base, limit] = targets[name] ?? [];
    const wall = base ? r.ms / out[base].ms : undefined;
    const cpu = base ? r.cpu / out[base].cpu : undefined;
    const met = base ? target(`${name} / ${base}`, cpu, limit, { wall }) : '';
    const shown = base ? `  CPU ${cpu.toFixed(2)}x ${base} (target <= ${limit}x${met}; wall ${wall.toFixed(2)}x)` : '';
    console.log(
      `  ${name.padEnd(26)} ${ms(r.ms).padStart(7)}  CPU ${ms(r.cpu).padStart(7)}  ${r.mib.toFixed(1).padStart(6)} MiB${shown}`,
    );
  }
  return out;
}
