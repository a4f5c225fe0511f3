/** The defects test/sim/mutants.mjs reinstates, one patch list each (see there). */

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
    find: `import { ApiError, DuplicateRefundError, OutcomeUnknownError, UsageError } from '../../contract/errors';`,
    replace: `import { ApiError, DuplicateRefundError, NetworkError, OutcomeUnknownError, UsageError } from '../../contract/errors';`,
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
    const now = await api.call('getPayment', { params: { id: item.id } }).then((p) => baselineOf(p, item.id)).catch(() => undefined);
    if (now && typeof now !== 'string' && now.amountRefunded === prev.amount_refunded + prev.amount)
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
  {
    id: 'M6',
    defect: '6 doubles called done',
    what: 'a look for a key stops at the first refund carrying it: a second one (a duplicate) is never reported',
    edits: [
      {
        file: 'src/client/refund.ts',
        find: `    const duplicates = live.length > 1 ? live.map((r) => r.id) : undefined;`,
        replace: `    const duplicates = undefined as string[] | undefined; // MUTANT: the first refund with the key is all`,
      },
    ],
  },
  {
    id: 'M7',
    sim: 'mcp',
    defect: 'mcp: caps checked at plan time only',
    what: 'a confirmed write reserves against the caps without checking them: only the plan was checked',
    edits: [
      {
        file: 'src/agent/rails.ts',
        find: `  take(plan: Plan): Refusal | undefined {
    const refusal = this.check(plan);
    if (refusal) return refusal;`,
        replace: `  take(plan: Plan): Refusal | undefined {
    // MUTANT: the caps were checked when the write was planned; sending only reserves`,
      },
    ],
  },
  {
    id: 'M8',
    sim: 'mcp',
    defect: "mcp: unknown outcome's key not reused",
    what: 'the next plan of a payment with an unknown refund on record ignores it: a new key (or the given one, any amount)',
    edits: [
      {
        file: 'src/agent/plan.ts',
        find: `  const pending = env.unknownRefund(id);`,
        replace: `  const pending = undefined as ReturnType<ToolEnv['unknownRefund']>; // MUTANT: the unknown refund is not lent`,
      },
    ],
  },
  {
    id: 'M9',
    sim: 'mcp',
    defect: 'mcp: sent though its intent was not logged',
    what: "a refused 'sending' append is ignored and the write is sent anyway",
    edits: [
      {
        file: 'src/agent/execute.ts',
        find: `  } catch (err) {
    w.rails.release(plan);
    return fail(\`the audit log could not be written (\${(err as Error).message}): nothing was sent\`);
  }`,
        replace: `  } catch {
    // MUTANT: sent anyway
  }`,
      },
    ],
  },
  {
    id: 'M10',
    sim: 'mcp',
    defect: 'mcp: outcome lost with its log record',
    what: 'a refused append after the send fails the call: the assistant is never told the money outcome',
    edits: [
      {
        file: 'src/agent/execute.ts',
        find: `  try {
    w.record(tool.name, plan.args, event, { ...base, ...extra });
  } catch (err) {`,
        replace: `  w.record(tool.name, plan.args, event, { ...base, ...extra }); // MUTANT: the failed append is the call's error
  try {
  } catch (err) {`,
      },
    ],
  },
];
