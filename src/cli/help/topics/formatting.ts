import { NAMED_PERIODS, RELATIVE } from '../../../contract/values/time';
import { example, heading, list, table, text } from '../topic';
import type { Topic } from '../topic';

const relative = Object.entries(RELATIVE).map(([letter, unit]): [string, string] => [
  `\`3${letter}\``,
  `3 ${unit} before now`,
]);
const shifted = (n: number | undefined, unit: string) =>
  !n ? `this ${unit}` : `the ${unit} ${n < 0 ? 'before' : 'after'} this one`;
const named = [...NAMED_PERIODS.entries()].map(([name, p]): [string, string] => [
  `\`${name}\``,
  p.unit === 'day' ? shifted(p.shift.days, 'day') : `${shifted(p.shift.months, 'calendar month')}`,
]);

export const formatting: Topic = {
  name: 'formatting',
  title: 'Output formats',
  page: 'docs/formats.md',
  blocks: [
    text(
      'stdout carries data only; hints, progress, totals and errors go to stderr. `-o/--output` picks the',
      'format: `table` (the default on a terminal), `json` (the default otherwise), `ndjson` (one JSON object',
      'a line) or `csv`. `--out FILE` writes the result to a file instead, in the format of its extension',
      '(`.csv`, `.json`, `.ndjson`/`.jsonl`, `.xlsx`); see `payctl help exports`.',
    ),
    example(
      'payctl payments list --from 7d -o table',
      'payctl payments list --from 7d -o ndjson --fields id,amount,status,notes.reason',
      'payctl orders list --from 7d -o csv --fields id,amount,amount_display,created_at_local',
    ),
    heading('Tables'),
    text(
      'Tables fit the terminal: columns are kept by importance per resource, long text is cut with `…`, and',
      'one dim line on stderr names the columns left out (`--wide` shows them all, with the minor units and',
      'the `currency` column). Statuses are coloured on a terminal, never with `NO_COLOR`, `--no-color` or',
      'when stdout is not a terminal (`FORCE_COLOR=1` colours a pipe). Text from the service is stripped of',
      'control and escape sequences before it is shown. Notes show once, as `notes`; the `payctl_key` note',
      'payctl adds to each refund is left out of tables and kept in JSON, CSV and xlsx.',
    ),
    heading('Fields'),
    text(
      '`--fields a,b.c` picks columns by name, dot paths allowed (`notes.reason`). It knows every column it',
      'can write (`amount_display`, `created_at_local`, `notes.KEY`, ...) and refuses others with a',
      'suggestion, before anything is sent.',
    ),
    heading('Money'),
    text(
      'Amounts are integers in the smallest currency unit (paise for INR): `50000` is ₹500.00. A decimal',
      'amount is refused with a hint. Tables show money in one human form (`₹200.00`; `--wide` adds',
      '`(20000 paise)`); CSV and xlsx carry the integer, a display column (`amount_display`) and a `currency`',
      'column, so a spreadsheet sums per currency and never adds USD cents to INR paise. JSON stays as the',
      'service sent it.',
    ),
    heading('Times'),
    text(
      'Times are shown in `--tz` (default `PAYCTL_TZ`, then the machine zone). `--from`, `--to` and',
      '`--start-at` take Unix seconds, ISO dates (`2024-04-30`) and date-times (`2024-04-30T10:00`,',
      '`2024-04-30T10:00:00+05:30`), `now`, and these relative forms:',
    ),
    table(['form', 'means'], [...relative, ...named]),
    text(
      'A bare date or named day or month covers all of it in `--tz`: as `--from` it means its first second,',
      'as `--to` its last (`--to 2024-04-30` includes 23:59:59 of the 30th, days when clocks change',
      'included). `tomorrow` and `next-month` are for `--start-at`.',
    ),
    heading('CSV'),
    list(
      'a header always (also with no rows), stable columns, amounts as integers plus `_display`',
      'times as Unix seconds plus `_iso` and `_local` (in `--tz`, read as a date by spreadsheets)',
      'cells holding a comma, quote, semicolon, tab, CR or LF are quoted',
      "cells starting with `= + - @`, tab or CR get a `'` so no spreadsheet runs them, except plain numbers (`-12`) and phone numbers (`+919876543210`)",
    ),
    heading('xlsx'),
    text(
      "A real workbook, written as rows arrive by payctl's own streaming writer: paise as integers, rupees",
      'as numbers with a `₹` format, times as date cells in `--tz`, text as inline strings (never a formula),',
      'a frozen header with a filter, and a Summary sheet with the rows, the range, the zone and the totals',
      'per currency.',
    ),
  ],
};
