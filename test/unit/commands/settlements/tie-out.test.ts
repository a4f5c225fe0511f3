import { describe, expect, it } from 'vitest';
import { reconPeriod, settlementDay } from '../../../../src/commands/settlements/period';
import { TieOut, tieOutSection } from '../../../../src/commands/settlements/tie-out';

const IST = 19_800;

describe('the period of a reconciliation', () => {
  it('is a month, or a day of it, in Asia/Kolkata', () => {
    expect(reconPeriod('2024-02')).toMatchObject({
      year: 2024,
      month: 2,
      from: Date.UTC(2024, 1, 1) / 1000 - IST,
      to: Date.UTC(2024, 2, 1) / 1000 - IST - 1,
      label: '2024-02',
    });
    expect(reconPeriod('2024-02', '29')).toMatchObject({ day: 29, label: '2024-02-29' });
    expect(reconPeriod('2024-12', '31').to).toBe(Date.UTC(2025, 0, 1) / 1000 - IST - 1);
  });

  it('refuses what is not a month or a day of it', () => {
    expect(() => reconPeriod('2024-13')).toThrow(/--month must be a month as YYYY-MM/);
    expect(() => reconPeriod('April')).toThrow(/--month/);
    expect(() => reconPeriod('2023-02', '29')).toThrow('--day must be a day of 2023-02, 1-28: got "29"');
    expect(() => reconPeriod('2024-04', '0')).toThrow(/--day/);
  });

  it("a settlement's day is its day in India", () => {
    // 20:00 UTC on 31 March is 1 April in India.
    expect(settlementDay(Date.UTC(2024, 2, 31, 20) / 1000)).toEqual({ month: '2024-04', day: '1' });
  });
});

describe('tying a settlement out', () => {
  const rows = [
    { type: 'payment', entity_id: 'pay_1', amount: 100_000, fee: 2360, tax: 360, credit: 97_640, debit: 0 },
    { type: 'payment', entity_id: 'pay_2', amount: 50_000, fee: 1180, tax: 180, credit: 48_820, debit: 0 },
    { type: 'refund', entity_id: 'rfnd_1', amount: 30_000, fee: 0, tax: 0, credit: 0, debit: 30_000 },
  ].map((r) => ({ ...r, settlement_id: 'setl_A', settlement_utr: '1700000000abcdef', settled_at: 1_700_000_000 }));

  it('agrees when credits less debits, fees and tax are the settlement’s', () => {
    const tie = new TieOut();
    rows.forEach((r) => tie.note(r));
    tie.noteUnsettled({ amount: 20_000, fee: 472 });
    const [verdict] = tie.verdicts(new Map([['setl_A', { id: 'setl_A', amount: 116_460, fees: 3540, tax: 540 }]]));
    expect(verdict).toMatchObject({ payments: 2, gross: 150_000, refunds: 30_000, net: 116_460, differences: [] });
    const section = tieOutSection([verdict!], tie);
    expect(section.rows[0]).toEqual([
      'setl_A',
      '1700000000abcdef',
      1_700_000_000,
      2,
      150_000,
      3540,
      540,
      30_000,
      146_460,
      30_000,
      116_460,
      116_460,
      'yes',
    ]);
    expect(section.rows[1]!.slice(0, 5)).toEqual(['unsettled', null, null, 1, 20_000]);
    expect(section.lines[0]).toMatch(/^setl_A \(UTR 1700000000abcdef\): 2 payments ₹1,500\.00, .*: ties out$/);
    expect(section.lines[1]).toBe("unsettled at the period's end: 1 captured payment, ₹200.00 (20000 paise) gross");
  });

  it('names each figure that differs', () => {
    const tie = new TieOut();
    rows.forEach((r) => tie.note(r));
    const [verdict] = tie.verdicts(new Map([['setl_A', { id: 'setl_A', amount: 116_000, fees: 3540, tax: 500 }]]));
    expect(verdict!.differences).toEqual([
      'credits - debits: rows ₹1,164.60 (116460 paise), settlement ₹1,160.00 (116000 paise)',
      'tax: rows ₹5.40 (540 paise), settlement ₹5.00 (500 paise)',
    ]);
    expect(tieOutSection([verdict!], tie).rows[0]!.at(-1)).toBe('no');
  });
});
