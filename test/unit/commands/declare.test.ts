import { Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { pageOptions, pick } from '../../../src/commands/declare';
import { listOptions, withNotes } from '../../../src/commands/options';

describe('reading the options of a command', () => {
  it('pick keeps the named options under their own names, given or not', () => {
    const opts: { customer?: string; fundAccount?: string; amount?: string; other?: string } = {
      customer: 'cust_1',
      fundAccount: 'fa_1',
      other: 'x',
    };
    expect(pick(opts, 'customer', 'fundAccount', 'amount')).toEqual({
      customer: 'cust_1',
      fundAccount: 'fa_1',
      amount: undefined,
    });
  });

  it('withNotes adds the --note values, none when none were given', () => {
    expect(withNotes({ amount: '100', note: ['a=1', 'b=2'] }, 'amount')).toEqual({
      amount: '100',
      notes: ['a=1', 'b=2'],
    });
    expect(withNotes({ amount: '100' }, 'amount')).toEqual({ amount: '100', notes: [] });
  });

  it('a list reads its page options, --all as a boolean', () => {
    const cmd = listOptions(new Command('list').exitOverride(), 'items in one page', (list) =>
      list.addOption(new Option('--receipt <r>', 'r')),
    );
    cmd.parse(['--from', '7d', '--count', '5', '--receipt', 'x'], { from: 'user' });
    expect(pageOptions(cmd.opts())).toEqual({
      from: '7d',
      to: undefined,
      count: '5',
      skip: undefined,
      limit: undefined,
      all: false,
    });
    // The list's own filters stand between the page window and the walk, as its help shows them.
    expect(cmd.options.map((o) => o.long)).toEqual([
      '--from',
      '--to',
      '--count',
      '--skip',
      '--receipt',
      '--all',
      '--limit',
    ]);
  });
});
