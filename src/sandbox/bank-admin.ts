import * as z from 'zod/mini';
import type { AdminDeps } from './admin';
import { parse } from './admin';
import { QUIRKS, STATEMENT_FORMATS, bankStatement, statementText } from './bank-statement';

const StatementBody = z.object({
  month: z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'must be a month as YYYY-MM' })),
  format: z.enum(STATEMENT_FORMATS),
  quirks: z.optional(z.array(z.enum(QUIRKS)).check(z.maxLength(QUIRKS.length))),
});

/** The admin route of bank statements: the merchant account's statement for a month, as text in a format. */
export const bankRoutes = {
  bankStatement(body: unknown, { store }: AdminDeps) {
    const input = parse(StatementBody, body);
    const statement = bankStatement(store, { month: input.month, quirks: input.quirks ?? [] });
    return {
      entity: 'bank_statement',
      month: input.month,
      format: input.format,
      quirks: input.quirks ?? [],
      account: statement.account,
      opening_balance: statement.opening,
      closing_balance: statement.closing,
      entries: statement.lines.length,
      text: statementText(statement, input.format),
    };
  },
};
