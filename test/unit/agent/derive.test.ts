import { describe, expect, it } from 'vitest';
import { argvOf, deriveTools } from '../../../src/agent/derive';
import { GROUPS } from '../../../src/cli/groups';

const tools = deriveTools(GROUPS);
const byName = new Map(tools.map((t) => [t.name, t]));

describe('tools derived from the command declarations', () => {
  it('every marked command is a tool named by its words, reads and writes as its endpoint says', () => {
    // Which tools there are, which write, and which move money: each list as sorted words.
    const sorted = (of: (t: (typeof tools)[number]) => string | false) => tools.flatMap((t) => of(t) || []).sort();
    const words = (text: string) => text.split(/\s+/).filter(Boolean).sort();
    expect(sorted((t) => t.name)).toEqual(
      words(
        `orders_list orders_get orders_payments orders_create customers_list customers_get items_list items_get
        plans_list plans_get subscriptions_list subscriptions_get subscriptions_cancel settlements_list
        settlements_get settlements_recon payments_list payments_get payments_capture payments_refund refunds_list
        refunds_get wallet_balance wallet_statement wallet_transfer wallet_credit wallet_payout`,
      ),
    );
    expect(sorted((t) => t.write && t.name)).toEqual(
      words(
        `orders_create payments_capture payments_refund subscriptions_cancel wallet_transfer wallet_credit wallet_payout`,
      ),
    );
    expect(sorted((t) => t.moves && t.endpoint)).toEqual(
      words(`capturePayment refundPayment transferPayment createDirectTransfer createPayout`),
    );
    for (const t of tools) expect(t.annotations.readOnlyHint).toBe(!t.write);
  });

  it("required fields are the command's arguments and mandatory options", () => {
    expect(byName.get('wallet_payout')!.inputSchema.required).toEqual([
      'customer_id',
      'fund_account_id',
      'amount',
      'purpose',
    ]);
    expect(byName.get('orders_create')!.inputSchema.required).toEqual(['amount', 'currency']);
  });

  it('arguments become the command line as given, never as options of their own', () => {
    const refund = byName.get('payments_refund')!;
    expect(argvOf(refund, { payment_id: '--input=/etc/passwd', amount: 100, note: { reason: 'a b' } })).toEqual([
      'payments',
      'refund',
      '--amount=100',
      '--note=reason=a b',
      '--',
      '--input=/etc/passwd',
    ]);
    expect(() => argvOf(refund, { payment_id: 'pay_A', journal: 'x' })).toThrow(/^journal: no such field/);
    expect(() => argvOf(refund, {})).toThrow(/^payment_id: required/);
    expect(() => argvOf(refund, { payment_id: { id: 1 } })).toThrow(/^payment_id: must be a string/);
    expect(() => argvOf(byName.get('orders_list')!, { authorized: 'yes' })).toThrow(/must be true or false/);
  });
});
