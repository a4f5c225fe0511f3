import { UsageError } from '../../contract/errors';
import { ADMIN_PREFIX } from '../../contract/admin-api';
import type { Context } from '../context';
import type { CommandResult } from '../result';

export const STATEMENT_FORMATS = ['mt940', 'camt053', 'csv'] as const;
export const STATEMENT_QUIRKS = ['missing', 'extra', 'amount', 'truncate'] as const;

export interface BankStatementOptions {
  month: string;
  format: (typeof STATEMENT_FORMATS)[number];
  quirks?: string;
}

interface Written {
  month: string;
  format: string;
  entries: number;
  opening_balance: number;
  closing_balance: number;
  text: string;
}

/** The sandbox merchant account's bank statement for a month, in a bank's format, to stdout or --out. */
export async function bankStatement(opts: BankStatementOptions, ctx: Context): Promise<CommandResult> {
  const month = opts.month.trim();
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
    throw new UsageError(`--month must be a month as YYYY-MM, e.g. 2031-03: got "${opts.month}"`);
  const quirks = (opts.quirks ?? '')
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
  const unknown = quirks.find((q) => !(STATEMENT_QUIRKS as readonly string[]).includes(q));
  if (unknown !== undefined)
    throw new UsageError(`--quirks takes ${STATEMENT_QUIRKS.join(', ')} (comma-separated): got "${unknown}"`);
  const api = await ctx.api();
  const body = { month, format: opts.format, quirks: [...new Set(quirks)] };
  const written = await api.requestFromOrigin<Written>('POST', `${ADMIN_PREFIX}/bank-statement`, body);
  const lines = written.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return { type: 'lines', lines, json: written };
}
