import { extname } from 'node:path';
import { UsageError } from '../contract/errors';
import { isoTime } from './time';
import { writeAtomically } from './atomic-file';
import type { ResourceKind } from './columns';
import type { OutputFormat } from './format';
import { exportColumns, renderMany } from './render';
import type { Rows } from './render';
import { summaryLines, zoneText } from './summary';
import type { ExportSummary } from './summary';

export type FileFormat = Exclude<OutputFormat, 'table'> | 'xlsx';

const BY_EXTENSION: Record<string, FileFormat> = {
  '.csv': 'csv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
};

/**
 * The format of an --out file follows its extension; an -o that says otherwise is refused (exit 2,
 * nothing sent). A file with another extension needs -o; PAYCTL_OUTPUT yields to the extension.
 */
export function fileFormat(path: string, format: OutputFormat, source: 'flag' | 'env' | 'default'): FileFormat {
  const ext = extname(path).toLowerCase();
  const byExt = BY_EXTENSION[ext];
  if (byExt) {
    if (source === 'flag' && format !== byExt) {
      throw new UsageError(
        `--out ${path} is ${byExt} by its extension but -o says ${format}: drop -o, or give the file a .${format === 'ndjson' ? 'ndjson' : format} name`,
      );
    }
    return byExt;
  }
  if (source !== 'default' && format !== 'table') return format;
  throw new UsageError(
    `--out ${path}: the format follows the extension (.csv, .json, .ndjson or .jsonl, .xlsx); for another name pass -o csv, json or ndjson`,
  );
}

export interface ExportJob {
  kind: ResourceKind;
  items: Rows;
  target: string;
  format: FileFormat;
  fields?: string[];
  tz: string;
  tagged?: boolean;
  summary: ExportSummary;
}

/** --out: the rows to a file, atomically, then what was written on stderr. */
export async function writeExport(job: ExportJob, stderr: NodeJS.WritableStream): Promise<void> {
  const { kind, items, target, format, summary } = job;
  const opts = { fields: job.fields, tz: job.tz, tagged: job.tagged };
  const rows = await writeAtomically(target, async (out) => {
    if (format !== 'xlsx') return renderMany(kind, items, { ...opts, format, out });
    const [{ writeXlsx }, columns] = await Promise.all([import('./xlsx'), exportColumns(kind, opts)]);
    return writeXlsx(out, kind, columns, items, summary);
  });
  const when = (t: number | undefined) => (t === undefined || !Number.isFinite(t) ? 'any time' : isoTime(t, job.tz));
  const asked = `range ${when(summary.range.from)} to ${when(summary.range.to)}`;
  const got =
    rows && Number.isFinite(summary.first) ? `; rows created ${when(summary.first)} to ${when(summary.last)}` : '';
  const lines = [
    `wrote ${rows} rows to ${target} (${asked}${got}; ${zoneText(summary.zone)})`,
    ...summaryLines(summary),
  ];
  stderr.write(`${lines.join('\n')}\n`);
}
