#!/usr/bin/env node
/**
 * The simulation's proof against the five money defects of issue 26: each defect's fix reverted by a
 * small text patch of src (a mutant), in a scratch copy of the tree (this tree is never touched), and
 * the money simulation run over it. A mutant is found when seeds fail that do not fail (or fail
 * otherwise) on the unmutated copy.
 *
 *   node test/sim/mutants.mjs                      every mutant, 2,000 seeds each, and the baseline
 *   node test/sim/mutants.mjs --seeds 10000 M3     chosen mutants, more seeds
 *   node test/sim/mutants.mjs --replay M3 1234     one seed of one mutant, with its trace
 *   node test/sim/mutants.mjs --list               the mutants and their patches
 *   node test/sim/mutants.mjs --keep DIR M4        also writes each mutant's failing seeds to DIR/M4.json
 *
 * A patch whose text no longer matches src exactly once stops the script (src moved on: update it).
 * One simulation at a time; each takes what `npx vitest run test/sim/money.sim.test.ts` takes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The single refund's share of M3 and M3b: a 'fail' verdict after a lost answer is exit 5, "not applied". */
const SINGLE_FAIL_IS_EXIT_5 = [
  {
    file: 'src/commands/payments/refund-single.ts',
    find: `  if (verdict.action === 'done') {`,
    replace: `  if (verdict.action === 'fail') throw new NetworkError(\`refund of \${id}: \${verdict.why}\`); // MUTANT: exit 5
  if (verdict.action === 'done') {`,
  },
  {
    file: 'src/commands/payments/refund-single.ts',
    find: `import { ApiError, OutcomeUnknownError, UsageError } from '../../contract/errors';`,
    replace: `import { ApiError, NetworkError, OutcomeUnknownError, UsageError } from '../../contract/errors';`,
  },
];

/** Each mutant: the defect it reinstates and its edits, `find` exact and found once in `file`. */
export const MUTANTS = [
  {
    id: 'M1',
    defect: '1 torn journal',
    what: 'a short write of a record is ignored, and a torn last record is cut as "nothing it described was sent"',
    edits: [
      {
        file: 'src/bulk/journal-file.ts',
        find: `      for (let off = 0; off < data.length;) {
        const n = this.file.append(data.subarray(off));
        if (!(n > 0)) throw Object.assign(new Error('a write wrote nothing'), { code: 'EIO' });
        off += n;
        this.size += n;
      }`,
        replace: `      this.file.append(data); // MUTANT: the count a short write returns is ignored
      this.size += data.length;`,
      },
      {
        file: 'src/bulk/journal.ts',
        find: `    if (this.repairedId && this.stateOf(this.repairedId) !== 'done') this.states.set(this.repairedId, 'in_flight');`,
        replace: `    // MUTANT: the torn record is cut as if nothing it described was sent`,
      },
    ],
  },
  {
    id: 'M1a',
    defect: '1 torn journal (short write only)',
    what: 'only the short write ignored; a torn tail still makes its row unknown',
    edits: [0],
    of: 'M1',
  },
  {
    id: 'M1b',
    defect: '1 torn journal (torn tail only)',
    what: 'only the torn tail taken as "nothing sent"; records still written whole',
    edits: [1],
    of: 'M1',
  },
  {
    id: 'M2',
    defect: '2 file confirmed is not file sent',
    what: "after the question the run reads the --input file again instead of executing the journal's frozen plan",
    edits: [
      {
        file: 'src/commands/payments/bulk-journal.ts',
        find: `import { amounts, confirmRun } from './bulk-confirm';\n`,
        replace: `import { amounts, confirmRun } from './bulk-confirm';
import { createReadStream } from 'node:fs';
import { readOnce } from '../../bulk/source';
import { planBulk } from './bulk-options';\n`,
      },
      {
        file: 'src/commands/payments/bulk-journal.ts',
        find: `    return { journal, path, items, runId: journal.plan!.runId };`,
        replace: `    // MUTANT: the input is read again for the run, after it was confirmed
    const reread = run.input ? (await readOnce(createReadStream(run.input), op, planBulk(run).fill, 0)).source : items;
    return { journal, path, items: reread, runId: journal.plan!.runId };`,
      },
    ],
  },
  {
    id: 'M3',
    defect: '3 "not applied" while on its way',
    what: 'after a lost answer, amount_refunded unchanged is "not applied": a failed row, or exit 5 "safe to run again"',
    edits: [
      {
        file: 'src/client/refund.ts',
        find: `  if (d.after === d.before)
    return { action: 'unknown', why: \`amount_refunded unchanged (\${figures}): the request may still land\` };`,
        replace: `  if (d.after === d.before) // MUTANT: unchanged after a timeout taken as a refusal
    return { action: 'fail', why: \`not applied (\${figures}): safe to run the same command again\` };`,
      },
      ...SINGLE_FAIL_IS_EXIT_5,
    ],
  },
  {
    id: 'M3b',
    defect: '3 "not applied" while on its way (list)',
    what: 'the same idea where the service lists refunds: our key absent after a lost answer is "not applied"',
    edits: [
      {
        file: 'src/client/refund.ts',
        find: `    return { action: 'unknown', why: 'no refund carries our key yet, and the request may still land' };`,
        replace: `    return { action: 'fail', why: 'no refund carries our key: not applied, safe to run the same command again' }; // MUTANT`,
      },
      ...SINGLE_FAIL_IS_EXIT_5,
    ],
  },
  {
    id: 'M4',
    defect: "4 someone else's refund recorded as ours",
    what: "a resumed row is judged by amount_refunded against the first run's sent baseline before any look for its key",
    edits: [
      {
        file: 'src/commands/payments/refund-row.ts',
        find: `  if (recheck && stage === 'fresh') return { result: 'skipped', reason: 'not sent by this journal' };`,
        replace: `  if (recheck && stage === 'fresh') return { result: 'skipped', reason: 'not sent by this journal' };
  const prev = at.previous; // MUTANT: the earlier run's baseline, by arithmetic, instead of our key
  if (stage === 'resume' && prev?.amount !== undefined && prev.amount_refunded !== undefined) {
    const now = await refundBaseline(api, item.id).catch(() => undefined);
    if (now && now.amountRefunded === prev.amount_refunded + prev.amount)
      return { result: 'done', amount: prev.amount, reason: 'applied by the earlier run (amount_refunded moved by its amount)' };
  }`,
      },
    ],
  },
  {
    id: 'M5',
    defect: '5 hostile service data',
    what: "a payment's figures are used as they come: any finite number, any id, amount_refunded above amount",
    edits: [
      {
        file: 'src/contract/rules.ts',
        find: `  if (r.id !== askedId) return`,
        replace: `  if (false) return // MUTANT: id not checked`,
      },
      {
        file: 'src/contract/rules.ts',
        find: `  return n !== undefined && Number.isSafeInteger(n) && n >= 0;`,
        replace: `  return n !== undefined; // MUTANT: negative and fractional figures pass`,
      },
      {
        file: 'src/contract/rules.ts',
        find: `  if (amountOf(r.amount_refunded)! > amountOf(r.amount)!)`,
        replace: `  if (false) // MUTANT: amount_refunded above amount passes`,
      },
    ],
  },
  {
    id: 'M5a',
    defect: '5 hostile data (id only)',
    what: 'only the id of the record not checked',
    edits: [0],
    of: 'M5',
  },
  {
    id: 'M5b',
    defect: '5 hostile data (sign/fraction only)',
    what: 'only negative and fractional figures pass',
    edits: [1],
    of: 'M5',
  },
];

const byId = new Map(MUTANTS.map((m) => [m.id, m]));
const editsOf = (m) => (m.of ? m.edits.map((i) => byId.get(m.of).edits[i]) : m.edits);

function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'payctl-mutants-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => {
      const rel = relative(root, src);
      return !/^(node_modules|\.git|dist|coverage)(\/|$)/.test(rel);
    },
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Applies a mutant's edits to the copy; returns a function that restores every file it changed. */
function apply(dir, m) {
  const originals = new Map();
  for (const e of editsOf(m)) {
    const path = join(dir, e.file);
    if (!originals.has(path)) originals.set(path, readFileSync(path, 'utf8'));
    const text = readFileSync(path, 'utf8');
    const at = text.indexOf(e.find);
    if (at < 0 || text.indexOf(e.find, at + 1) >= 0)
      throw new Error(`${m.id}: the patch of ${e.file} does not match exactly once (src changed?):\n${e.find}`);
    writeFileSync(path, text.slice(0, at) + e.replace + text.slice(at + e.find.length));
  }
  return () => {
    for (const [path, text] of originals) writeFileSync(path, text);
  };
}

function simulate(dir, env) {
  const json = join(dir, `sim-${process.hrtime.bigint()}.json`);
  const started = Date.now();
  const r = spawnSync(
    'npx',
    ['vitest', 'run', '--project', 'unit', 'test/sim/money.sim.test.ts', ...(env.SIM_SEED ? [] : ['-t', 'invariants'])],
    { cwd: dir, env: { ...process.env, ...env, SIM_JSON: json }, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  const out = `${r.stdout}${r.stderr}`;
  const seconds = (Date.now() - started) / 1000;
  const line = /money simulation: .*/.exec(out)?.[0] ?? '';
  if (!existsSync(json)) return { error: out.slice(-3000), out, seconds };
  const failures = JSON.parse(readFileSync(json, 'utf8'));
  rmSync(json);
  return { failures, out, line, seconds };
}

/** The violations of a failing seed that are not known findings (known.ts): those fail the test. */
const fresh = (f) => f.invariants.map((inv, i) => ({ inv, detail: f.details[i] })).filter((_, i) => !f.known[i]);

function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    if (i < 0) return dflt;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  if (args.includes('--list')) {
    for (const m of MUTANTS) {
      console.log(`${m.id} (defect ${m.defect}): ${m.what}`);
      for (const e of editsOf(m))
        console.log(
          `  ${e.file}\n  - ${e.find.split('\n').join('\n  - ')}\n  + ${e.replace.split('\n').join('\n  + ')}`,
        );
    }
    return;
  }
  const replay = opt('--replay');
  const seeds = opt('--seeds', '2000');
  const first = opt('--first', '1');
  const keep = opt('--keep'); // a directory: each mutant's failing seeds as JSON (MUTANT.json)
  const dir = scratchCopy();
  try {
    if (replay) {
      const m = byId.get(replay);
      if (!m) throw new Error(`no mutant ${replay}`);
      apply(dir, m);
      const r = simulate(dir, { SIM_SEED: args[0] });
      console.log(r.out);
      return;
    }
    const chosen = args.length
      ? args.map(
          (id) =>
            byId.get(id) ??
            (() => {
              throw new Error(`no mutant ${id}`);
            })(),
        )
      : MUTANTS;
    const env = { SIM_SEEDS: seeds, SIM_FIRST: first };
    const base = simulate(dir, env);
    if (base.error) throw new Error(`the unmutated simulation did not run:\n${base.error}`);
    console.log(`baseline (unmutated), seeds ${first}..${Number(first) + Number(seeds) - 1}: ${base.line}`);
    const baseFound = base.failures.filter((f) => fresh(f).length).length;
    if (baseFound) console.log(`  (the unmutated code fails ${baseFound} seeds: the counts below include them)`);
    const rows = [];
    for (const m of chosen) {
      const restore = apply(dir, m);
      let r;
      try {
        r = simulate(dir, env);
      } finally {
        restore();
      }
      if (keep && !r.error) writeFileSync(join(keep, `${m.id}.json`), JSON.stringify(r.failures, null, 1));
      if (r.error) {
        rows.push({ m, found: 'ERROR', inv: r.error.split('\n').find((l) => /Error|error/.test(l)) ?? '' });
        continue;
      }
      // Found: a seed the test fails, i.e. with a violation that is not a known finding (known.ts).
      // (A mutant that sends one more request shifts the random stream of every later choice, so a
      // seed that only meets a known finding elsewhere is not counted as finding the mutant.)
      const found = r.failures.filter((f) => fresh(f).length);
      const counts = new Map();
      for (const f of found)
        for (const inv of new Set(fresh(f).map((v) => v.inv))) counts.set(inv, (counts.get(inv) ?? 0) + 1);
      const inv = [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      rows.push({ m, found: found.length, inv, example: found[0], seconds: r.seconds });
    }
    const pad = (s, n) => String(s).padEnd(n);
    console.log(`\n${pad('mutant', 7)}${pad('defect', 44)}${pad('seeds', 7)}invariants violated (seeds)`);
    for (const { m, found, inv } of rows)
      console.log(`${pad(m.id, 7)}${pad(m.defect, 44)}${pad(found, 7)}${inv || '-'}`);
    console.log('');
    for (const { m, example } of rows)
      if (example)
        console.log(
          `${m.id} e.g. seed ${example.seed} (${example.mode}): ${fresh(example)[0].inv}: ${fresh(example)[0].detail.slice(0, 240)}\n` +
            `  replay: node test/sim/mutants.mjs --replay ${m.id} ${example.seed}`,
        );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
