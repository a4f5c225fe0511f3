import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { run, scratchDir } from './harness';
import { offsetList, pagedList, payment, standInForFile } from './stand-in';
import type { ListScript } from './stand-in';

/**
 * `settlements recon` against a stand-in whose report, settlements and figures each test scripts. It ties
 * out (exit 0, the whole file) only when every listed settlement has its rows, every row keeps the rules
 * and every deposit adds up; anything else is exit 1 naming the first finding, and no file.
 */
const stand = standInForFile();
const dir = scratchDir('payctl-hostile-recon-');
const IST = 19_800;
/** A time on a day of April 2024 in Asia/Kolkata: fixed dates, no calendar involved. */
const april = (day: number, hour = 11) => Date.UTC(2024, 3, day, hour) / 1000 - IST;

type Row = Record<string, unknown>;
interface Month {
  settlements: Row[];
  rows: Row[];
  payments: ReturnType<typeof payment>[];
}

/** Three deposits (80, 60 and 30 payments, two refunds in the second) that tie out, and 3 payments not settled. */
function month(): Month {
  const settlements: Row[] = [];
  const rows: Row[] = [];
  const payments: ReturnType<typeof payment>[] = [];
  let n = 0;
  for (const [i, [day, count, refunds]] of (
    [
      [5, 80, 0],
      [12, 60, 2],
      [20, 30, 0],
    ] as const
  ).entries()) {
    const id = `setl_Stand0000000${i}`;
    const utr = `utr0000${i}`;
    const mine: Row[] = [];
    for (let k = 0; k < count; k++, n++) {
      const p = payment(n, { created_at: april(day - 2) + n });
      payments.push(p);
      const row = { type: 'payment', entity_id: p.id, amount: p.amount, fee: p.fee, tax: p.tax };
      mine.push({
        ...row,
        credit: p.amount - p.fee,
        debit: 0,
        currency: 'INR',
        settled: true,
        created_at: p.created_at,
      });
    }
    for (let k = 0; k < refunds; k++)
      mine.push({
        type: 'refund',
        entity_id: `rfnd_Stand0000000${k}`,
        amount: 500,
        fee: 0,
        tax: 0,
        credit: 0,
        debit: 500,
      });
    const sum = (key: string) => mine.reduce((t, r) => t + Number(r[key]), 0);
    const at = april(day);
    rows.push(...mine.map((r) => ({ ...r, settlement_id: id, settlement_utr: utr, settled_at: at })));
    settlements.push({
      id,
      entity: 'settlement',
      amount: sum('credit') - sum('debit'),
      status: 'processed',
      fees: sum('fee'),
      tax: sum('tax'),
      utr,
      created_at: at,
    });
  }
  for (let k = 0; k < 3; k++, n++) payments.push(payment(n, { created_at: april(29) + k }));
  return { settlements, rows, payments };
}

function serve(m: Month, report: ListScript = {}) {
  stand.on('GET /settlements/recon/combined', offsetList(m.rows, report));
  stand.on('GET /settlements/:id', (_q, { id }) => {
    const s = m.settlements.find((x) => x.id === id);
    return s ? { body: s } : undefined;
  });
  stand.on('GET /settlements', pagedList(m.settlements as Array<{ created_at: number }>));
  stand.on('GET /payments', pagedList(m.payments));
}

const recon = (file: string, args: string[] = []) =>
  run(['settlements', 'recon', '--month', '2024-04', '--out', join(dir, file), ...args], {
    env: stand.env,
    timeoutMs: 60_000,
  });
const csv = (file: string) => parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) as Row[];

describe('a month that ties out', () => {
  it('every deposit, every row (also past a short page), the unsettled named: exit 0 and the whole file', async () => {
    const m = month();
    serve(m, { shortAt: 99 });
    const res = await recon('april.csv');
    expect(res.code, res.stderr).toBe(0);
    const rows = csv('april.csv');
    expect(rows).toHaveLength(m.rows.length + 3);
    expect(new Set(rows.map((r) => r.entity_id)).size).toBe(m.rows.length + 3);
    expect(res.stderr.match(/: ties out$/gm)).toHaveLength(3);
    expect(res.stderr).toContain("unsettled at the period's end: 3 captured payments");
  });
});

describe('a month that does not tie out: exit 1 naming the first finding, no file', () => {
  const cases: Array<[string, (m: Month) => ListScript | void, RegExp]> = [
    [
      'a listed deposit with no rows in the report',
      (m) =>
        void m.settlements.push({
          id: 'setl_NoRows00000001',
          entity: 'settlement',
          amount: 5000,
          fees: 0,
          tax: 0,
          utr: 'utrX',
          created_at: april(25),
        }),
      /settlement setl_NoRows00000001 \(UTR utrX\) does not tie out: no rows in the report for its ₹50\.00/,
    ],
    [
      'a credit that is not amount - fee',
      (m) => void (m.rows[5]!.credit = Number(m.rows[5]!.credit) + 1),
      /payment pay_Stand000000005: credit \d+ is not amount \d+ - fee \d+ = \d+/,
    ],
    [
      'a negative fee',
      (m) => void Object.assign(m.rows[7]!, { fee: -10, tax: 0, credit: Number(m.rows[7]!.amount) + 10 }),
      /payment pay_Stand000000007: fee is -10/,
    ],
    ['a row without tax', (m) => void delete m.rows[120]!.tax, /payment pay_Stand000000120: tax is missing/],
    [
      'tax more than the fee',
      (m) => void (m.rows[9]!.tax = Number(m.rows[9]!.fee) + 1),
      /payment pay_Stand000000009: tax \d+ is more than its fee/,
    ],
    [
      'a payment row without settlement_id',
      (m) => void delete m.rows[150]!.settlement_id,
      /payment pay_Stand000000148: no settlement_id, and not listed as unsettled/,
    ],
    [
      'a deposit whose rows do not add up',
      (m) => void (m.settlements[1]!.amount = Number(m.settlements[1]!.amount) - 100),
      /settlement setl_Stand00000001 \(UTR utr00001\) does not tie out: credits - debits/,
    ],
    [
      "fees that are not the deposit's",
      (m) => void (m.settlements[2]!.fees = Number(m.settlements[2]!.fees) + 1),
      /setl_Stand00000002 \(UTR utr00002\) does not tie out: fees: rows/,
    ],
    [
      'a deposit stating no tax',
      (m) => void (m.settlements[0]!.tax = null),
      /setl_Stand00000000 \(UTR utr00000\) does not tie out: the settlement states no tax/,
    ],
    [
      'a row inserted in the report between pages',
      (m) => ({
        afterPage: (n) => void (n === 1 && m.rows.splice(10, 0, { ...m.rows[10]!, entity_id: 'pay_Inserted000001' })),
      }),
      /the service's list changed while it was read: a page of the report starts on setl_Stand00000001\/payment\/pay_Stand000000098/,
    ],
    [
      'a row twice in the report',
      (m) => void m.rows.splice(130, 0, m.rows[3]!),
      /the row setl_Stand00000000\/payment\/pay_Stand000000003 is in the report twice/,
    ],
  ];

  it.each(cases)('%s', async (name, change, finding) => {
    const m = month();
    const script = change(m);
    serve(m, script ?? {});
    const file = `${name.replace(/\W+/g, '-')}.xlsx`;
    const res = await recon(file);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(finding);
    expect(res.stderr.split('\n')[0]).toMatch(/^payctl: (2024-04( does not tie out)?: |the service's list changed)/);
    expect(existsSync(join(dir, file))).toBe(false);
  });

  it('a file already there is left as it was; --settlement alone names its missing rows', async () => {
    const m = month();
    m.rows = m.rows.filter((r) => r.settlement_id !== 'setl_Stand00000002');
    serve(m);
    writeFileSync(join(dir, 'march.csv'), 'march\n');
    const res = await recon('march.csv', ['-o', 'csv']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/setl_Stand00000002 \(UTR utr00002\) does not tie out: no rows in the report/);
    expect(readFileSync(join(dir, 'march.csv'), 'utf8')).toBe('march\n');
    const alone = await run(['settlements', 'recon', '--settlement', 'setl_Stand00000002', '-o', 'json'], {
      env: stand.env,
    });
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(
      /^payctl: 2024-04-20: settlement setl_Stand00000002 \(UTR utr00002\) does not tie out: no rows in the report/,
    );
  });
});
