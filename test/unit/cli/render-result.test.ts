import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderResult } from '../../../src/cli/render-result';
import type { IO, Settings } from '../../../src/commands/context';
import type { CommandResult } from '../../../src/commands/result';
import type { OutputFormat } from '../../../src/output/format';

async function rendered(result: CommandResult, format: OutputFormat, formatChosen: boolean) {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const io = { stdout, stderr: new PassThrough(), stdin: new PassThrough() } as unknown as IO;
  const settings = { format, formatChosen, tz: 'UTC', table: { wide: false, color: false } } as Settings;
  await renderResult(result, settings, io);
  return out;
}

describe('what src/cli prints for lines and a server', () => {
  const ids = ['order_a', 'order_b'];
  it.each([
    ['-o json asked for: the JSON form', 'json', true, `${JSON.stringify(ids, null, 2)}\n`],
    ['JSON only as the default of a pipe: lines', 'json', false, 'order_a\norder_b\n'],
    ['-o csv: lines', 'csv', true, 'order_a\norder_b\n'],
    ['a table: lines', 'table', false, 'order_a\norder_b\n'],
  ] as const)('lines with a JSON form, %s', async (_name, format, chosen, expected) => {
    expect(await rendered({ type: 'lines', lines: ids, json: ids }, format, chosen)).toBe(expected);
  });

  it.each([
    ['json', '{"base_url":"http://127.0.0.1:1/v1"}\n'],
    ['ndjson', '{"base_url":"http://127.0.0.1:1/v1"}\n'],
    ['table', 'listening\nkeys\n'],
    ['csv', 'listening\nkeys\n'],
  ] as const)('serve, %s: the record on one line for scripts, else the lines', async (format, expected) => {
    const result = { type: 'serve', record: { base_url: 'http://127.0.0.1:1/v1' }, lines: ['listening', 'keys'] };
    expect(await rendered({ ...result, until: Promise.resolve() } as CommandResult, format, true)).toBe(expected);
  });
});

describe('rows in a form that shows no time', () => {
  it.each(['json', 'ndjson'] as const)(
    "-o %s never asks for the time zone (finding the machine's costs ICU some 50 ms a run)",
    async (format) => {
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
      const io = { stdout, stderr: new PassThrough(), stdin: new PassThrough() } as unknown as IO;
      let asked = 0;
      const settings = {
        format,
        formatChosen: true,
        get tz() {
          asked++;
          return 'UTC';
        },
        table: { wide: false, color: false },
      } as Settings;
      const rows = [{ id: 'pay_a', entity: 'payment', amount: 100, created_at: 1700000000 }];
      await renderResult({ type: 'many', kind: 'payment', items: rows } as unknown as CommandResult, settings, io);
      expect(out).toContain('pay_a');
      expect(asked).toBe(0);
    },
  );
});
