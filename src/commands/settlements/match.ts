import { BANK_FORMATS } from '../../bank/types';
import type { BankFormat } from '../../bank/types';
import type { SettlementLike } from '../../bank/match';
import { FailureError, UsageError } from '../../contract/errors';
import { checkOutTarget, writeAtomically } from '../../output/atomic-file';
import type { Context } from '../context';
import { intFlag, rangeFlags } from '../flags';
import { listing } from '../listing';
import type { CommandResult } from '../result';
import { reconPeriod } from './period';
import { findingLine, findingsOf, matchCsvTable, matchLines, matchTables } from './match-report';

export interface MatchOptions {
  bank: string[];
  month?: string;
  from?: string;
  to?: string;
  format?: string;
  columns?: string;
  window?: string;
  allCredits?: boolean;
}

const DAY = 86_400;
/** Days a settlement's credit may take to be value-dated: a weekend and a bank holiday. */
export const DEFAULT_WINDOW = 4;

/** The period's first and last second, from --month or --from/--to. */
async function periodOf(ctx: Context, opts: MatchOptions) {
  if (opts.month !== undefined) {
    if (opts.from !== undefined || opts.to !== undefined)
      throw new UsageError('give --month YYYY-MM, or --from and --to, not both');
    const p = reconPeriod(opts.month);
    return { from: p.from, to: p.to, label: p.label };
  }
  if (opts.from === undefined || opts.to === undefined)
    throw new UsageError('which period? --month YYYY-MM, or --from and --to (the settlements made in it are matched)');
  const { from, to } = await rangeFlags(ctx, opts);
  return { from: from!, to: to!, label: `${opts.from} to ${opts.to}` };
}

/** A settlement as listed, checked to carry what matching needs. */
function settlementOf(row: unknown): SettlementLike {
  const s = row as Record<string, unknown>;
  if (typeof s.id !== 'string' || !Number.isInteger(s.amount) || !Number.isInteger(s.created_at))
    throw new FailureError(
      `the service listed a settlement without an id, an amount in paise or a created_at: ${JSON.stringify(row).slice(0, 120)}`,
    );
  return {
    id: s.id,
    utr: typeof s.utr === 'string' ? s.utr : '',
    amount: s.amount as number,
    created_at: s.created_at as number,
  };
}

/**
 * Bank statements tied to the period's settlements: every file read first (one that cannot be read ends
 * the run, exit 2, before anything is sent), then every settlement of the period (every page, and those of
 * the window's days either side, which may explain a credit but are not owed), then each credit matched.
 * Findings on stderr and in --out; any finding fails the run (exit 1) after the file is written.
 */
export async function matchSettlements(opts: MatchOptions, ctx: Context): Promise<CommandResult> {
  const files = opts.bank ?? [];
  if (!files.length) throw new UsageError('--bank FILE is required (repeat it for several statements)');
  if (opts.format !== undefined && !(BANK_FORMATS as readonly string[]).includes(opts.format))
    throw new UsageError(`--format must be one of ${BANK_FORMATS.join(', ')}: got "${opts.format}"`);
  const format = opts.format as BankFormat | undefined;
  const window = intFlag(opts.window, '--window', 0, 30) ?? DEFAULT_WINDOW;
  const period = await periodOf(ctx, opts);
  const { columnsFlag } = await import('../../bank/csv');
  const read = { format, columns: opts.columns === undefined ? undefined : columnsFlag(opts.columns) };
  const out = ctx.settings.out;
  if (out !== undefined) {
    if (!/\.(xlsx|csv)$/i.test(out)) throw new UsageError(`--out ${out}: a match report is .xlsx or .csv`);
    await checkOutTarget(out);
  }

  const { scanStatements, matchStatements } = await import('../../bank/tie');
  const scanned = await scanStatements(files, read);
  const span = { from: period.from - window * DAY, to: period.to + window * DAY, all: true };
  const listed = await listing(ctx, 'listSettlements', span);
  if ('dryRun' in listed) return listed.dryRun;
  const owed: SettlementLike[] = [];
  const neighbours: SettlementLike[] = [];
  for await (const row of listed.items) {
    const s = settlementOf(row);
    (s.created_at >= period.from && s.created_at <= period.to ? owed : neighbours).push(s);
  }
  const matcher = await matchStatements(
    files,
    read,
    owed,
    neighbours,
    { window, allCredits: Boolean(opts.allCredits) },
    scanned.last,
  );
  const report = {
    period: period.label,
    window,
    allCredits: Boolean(opts.allCredits),
    scanned,
    matcher,
    tz: ctx.settings.tz,
  };
  const lines = matchLines(report);
  if (out !== undefined) {
    const tables = matchTables(report);
    const { writeWorkbook, tableCsv } = await import('../../output/workbook');
    await writeAtomically(out, async (stream) => {
      if (/\.xlsx$/i.test(out)) return writeWorkbook(stream, tables, ctx.settings.tz);
      stream.write(tableCsv(matchCsvTable(tables)));
    });
    lines.push(
      `wrote ${out} (${/\.xlsx$/i.test(out) ? 'sheets Matched, Unmatched, Summary' : 'a row per match and per finding'})`,
    );
  }
  const findings = findingsOf(report);
  if (!findings.length && !matcher.dropped.count) return { type: 'done', message: lines.join('\n') };
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const failure = new FailureError(
    `the bank statements do not tie out to the settlements of ${period.label}: ` +
      [...counts].map(([k, n]) => `${n} ${k}`).join(', ') +
      (matcher.dropped.count ? `, ${matcher.dropped.count} more unexplained credits (not listed)` : ''),
  );
  failure.hints.push(...findings.map(findingLine));
  throw failure;
}
