import { walk, walkByOffset } from '../../client/paginate';
import type { ApiClient } from '../../client/client';
import { FailureError, FindingError, UsageError } from '../../contract/errors';
import { LIMITS } from '../../contract/limits';
import { plural } from '../../output/plural';
import { paged, pagesOf } from '../../rows/pages';
import { summaryLines, zoneText } from '../../output/summary';
import { dryRun } from '../check';
import type { Context } from '../context';
import { idArg } from '../flags';
import { listedRows, newSummary, pageQuery } from '../listing';
import type { CommandResult } from '../result';
import { reconPeriod, settlementDay } from './period';
import type { ReconPeriod } from './period';
import { TieOut, tieOutSection } from './tie-out';
import type { Stated } from './tie-out';
import { Findings, rowProblem } from './checks';
import type { ReconRow } from './checks';

export interface ReconOptions {
  month?: string;
  day?: string;
  settlement?: string;
}

interface Payment {
  id: string;
  captured?: unknown;
  amount: number;
  fee?: number | null;
  tax?: number | null;
  [field: string]: unknown;
}

/** A payment captured in the period and not settled within it, as a row of the report says so. */
const unsettledRow = (p: Payment) => ({
  settled_at: null,
  settlement_id: null,
  settlement_utr: null,
  type: 'payment',
  entity_id: p.id,
  amount: p.amount,
  currency: p.currency,
  fee: p.fee ?? null,
  tax: p.tax ?? null,
  credit: p.amount - (p.fee ?? 0),
  debit: 0,
  payment_id: null,
  order_id: p.order_id ?? null,
  order_receipt: null,
  method: p.method ?? null,
  settled: false,
  created_at: p.created_at,
});

/** The period asked for; with only --settlement, that settlement's own day. */
async function periodOf(api: ApiClient, opts: ReconOptions, only: string | undefined): Promise<ReconPeriod> {
  if (opts.month !== undefined) return reconPeriod(opts.month, opts.day);
  if (opts.day !== undefined) throw new UsageError('--day is a day of --month: give --month YYYY-MM too');
  if (only === undefined)
    throw new UsageError('which period? --month YYYY-MM [--day D], or --settlement setl_… for its own day');
  const settlement = await api.call<Stated>('getSettlement', { params: { id: only } });
  const { month, day } = settlementDay(Number(settlement.created_at));
  return reconPeriod(month, day);
}

/** The settlements the service lists for the period (every page), as it states them. */
async function listedSettlements(api: ApiClient, period: ReconPeriod, only?: string): Promise<Map<string, Stated>> {
  const stated = new Map<string, Stated>();
  const listed = walk((q) => api.call<{ items: unknown[] }>('listSettlements', { query: q }), {
    from: period.from,
    to: period.to,
  });
  for await (const page of pagesOf(listed))
    for (const s of page as Stated[]) if (only === undefined || s.id === only) stated.set(s.id, s);
  return stated;
}

/**
 * Every settlement the service lists for the period, every row of the period's combined report (every
 * page), then the payments captured in it but not yet settled at its end; each row is checked (checks.ts)
 * and each settlement tied out against what the service states of it. Anything found (a row that breaks
 * a rule, a listed settlement with no rows, rows of one not listed, a figure that does not add up) fails
 * the run (exit 1) naming the first, and no file is written.
 */
export async function reconcile(opts: ReconOptions, ctx: Context): Promise<CommandResult> {
  const only = opts.settlement === undefined ? undefined : idArg(opts.settlement, 'settlement');
  const page = await pageQuery(ctx, { all: true }, 'settlement_recon');
  const api = await ctx.api();
  if (ctx.settings.dryRun && opts.month === undefined && only !== undefined)
    return dryRun(api.prepare('getSettlement', { params: { id: only } }));
  const period = await periodOf(api, opts, only);
  const { year, month, day } = period;
  const query = (skip: number) => ({ year, month, day, count: LIMITS.count, skip });
  if (ctx.settings.dryRun) return dryRun(api.prepare('settlementRecon', { query: query(0) }));
  const summary = newSummary(ctx, 'settlement_recon', { ...page, from: period.from, to: period.to });
  const tie = new TieOut();
  const findings = new Findings();
  const noted = (rows: ReconRow[]) => {
    for (const row of rows) {
      summary.note(row);
      const problem = rowProblem(row);
      if (problem) findings.add(problem);
    }
    return rows;
  };
  const rows = paged(
    (async function* () {
      const stated = await listedSettlements(api, period, only);
      const report = walkByOffset((q) => api.call<{ items: unknown[] }>('settlementRecon', { query: query(q.skip) }), {
        pageSize: LIMITS.count,
      });
      for await (const found of pagesOf(report)) {
        const kept = only ? (found as ReconRow[]).filter((r) => r.settlement_id === only) : (found as ReconRow[]);
        for (const row of kept) tie.note(row);
        if (kept.length) yield noted(kept);
      }
      if (only === undefined) {
        const payments = walk((q) => api.call<{ items: unknown[] }>('listPayments', { query: q }), {
          from: period.from,
          to: period.to,
        });
        for await (const found of pagesOf(payments)) {
          const open = (found as Payment[]).filter((p) => p.captured === true && !tie.settledPayments.has(p.id));
          for (const row of open) tie.noteUnsettled(row);
          if (open.length) yield noted(open.map(unsettledRow));
        }
      } else if (!tie.settlements.has(only) && !stated.has(only)) {
        throw new FailureError(`settlement ${only} has no rows in ${period.label}: nothing to reconcile`);
      }
      const verdicts = tie.verdicts(stated);
      const section = tieOutSection(verdicts, tie);
      section.lines.unshift(
        `period ${period.label} (settlement days in Asia/Kolkata, as the service counts them); ` +
          plural(verdicts.length, 'settlement'),
      );
      summary.sections.push(section);
      for (const v of verdicts)
        if (v.differences.length)
          findings.add(`settlement ${v.id} (UTR ${v.utr}) does not tie out: ${v.differences.join('; ')}`);
      if (findings.count) {
        const first = findings.named[0]!;
        const failure = new FindingError(
          `${period.label}${first.startsWith('settlement ') ? ':' : ' does not tie out:'} ${first}` +
            `${findings.count > 1 ? ` (and ${plural(findings.count - 1, 'more finding')}, below)` : ''}` +
            `${page.out ? `; nothing was written to ${page.out.path}` : ''}`,
        );
        failure.hints.push(...findings.lines(), ...section.lines);
        throw failure;
      }
    })(),
  );
  const after = () => (page.out ? undefined : [zoneText(summary.zone), ...summaryLines(summary)].join('\n'));
  return { type: 'many', kind: 'settlement_recon', ...listedRows(rows, page), summary, after };
}
