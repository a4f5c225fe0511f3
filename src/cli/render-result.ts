import type { IO, Settings } from '../commands/context';
import type { CommandResult, ManyResult } from '../commands/result';
import { renderMany, renderOne } from '../output/render';
import type { RenderOptions } from '../output/render';
import { plural } from '../output/plural';
import { paint } from '../output/style';

function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once('drain', () => resolve());
  });
}

/** The width hint lines on stderr wrap at: stderr's terminal, else the width tables fit. */
function hintWidth(settings: Settings, io: IO): number | undefined {
  const columns = io.stderrIsTTY ? (io.stderr as { columns?: number }).columns : undefined;
  return columns && columns > 0 ? columns : settings.table.width;
}

/** Hint lines after a list (more may exist, totals), each wrapped at the terminal's width. */
async function hint(text: string | undefined, settings: Settings, io: IO): Promise<void> {
  if (!text) return;
  const { wrapLines } = await import('../output/layout');
  io.stderr.write(`${wrapLines(text, hintWidth(settings, io))}\n`);
}

type Result<T extends CommandResult['type']> = Extract<CommandResult, { type: T }>;

/** Where and how rows are rendered: to `out`, with these fields, in the zone and table settings of the run. */
function renderOptions(
  settings: Settings,
  io: IO,
  out: NodeJS.WritableStream,
  fields: string[] | undefined,
): RenderOptions {
  return {
    format: settings.format,
    fields,
    // `tz` stays a getter: finding the machine's zone asks ICU, and JSON output never needs it.
    get tz() {
      return settings.tz;
    },
    out,
    // A table written to a file is neither cut to the terminal nor coloured. Read only by tables: what
    // the terminal can show is not looked up for JSON.
    get table() {
      if (out !== io.stdout) return { wide: true, color: false };
      return {
        ...settings.table,
        dropped: async (headers: string[]) => {
          const { wrapLines } = await import('../output/layout');
          const text = wrapLines(`not shown (--wide): ${headers.join(', ')}`, hintWidth(settings, io));
          io.stderr.write(`${paint('dim', text, settings.table.stderrColor)}\n`);
        },
      };
    },
  };
}

/** Renders a handler's result: data to stdout in the chosen format, messages to stderr. */
export async function renderResult(result: CommandResult, settings: Settings, io: IO): Promise<void> {
  switch (result.type) {
    case 'one':
      return renderOneResult(result, settings, io);
    case 'many':
      return renderManyResult(result, settings, io);
    case 'dry-run':
      return renderDryRun(result, settings, io);
    case 'lines':
      return renderLines(result, settings, io);
    case 'done':
      if (result.message) io.stderr.write(`${result.message}\n`);
      return;
    case 'serve':
      return renderServe(result, settings, io);
  }
}

/** --out, written atomically, every write redacted of the secrets in use as stdout's are. */
async function toFile<T>(file: string, fill: (out: NodeJS.WritableStream) => Promise<T>): Promise<T> {
  const [{ writeAtomically }, { redactChunk }, { filteredWritable }] = await Promise.all([
    import('../output/atomic-file'),
    import('../config/secrets'),
    import('./filtered'),
  ]);
  return writeAtomically(file, (out) => fill(filteredWritable(out, () => redactChunk)));
}

/** One record: to --out (atomically) or stdout, then its hint line. */
async function renderOneResult(result: Result<'one'>, settings: Settings, io: IO): Promise<void> {
  const file = result.out ?? settings.out;
  if (file) {
    await toFile(
      file,
      async (out) => (await renderOne(result.kind, result.data, renderOptions(settings, io, out, settings.fields)), 1),
    );
    io.stderr.write(`wrote ${file}\n`);
  } else await renderOne(result.kind, result.data, renderOptions(settings, io, io.stdout, settings.fields));
  await hint(result.after?.(), settings, io);
  await result.finish?.();
}

/** Rows, wherever they go (see writeRows), then the list's hint lines, or "(no results)" for an empty table. */
async function renderManyResult(result: ManyResult, settings: Settings, io: IO): Promise<void> {
  const { rows, toStdout } = await writeRows(result, settings, io);
  const after = result.after?.(rows);
  if (after) await hint(after, settings, io);
  else if (toStdout && rows === 0 && settings.format === 'table') io.stderr.write('(no results)\n');
  await result.finish?.();
}

/**
 * A list may run to many pages. V8 grows the young generation (semi-spaces) when much survives a
 * scavenge, and after a full collection lets the old generation grow by a factor it derives from how
 * fast that collection ran; on a loaded machine that swings, and at its highest dead pages (and the
 * response buffers they hold) pile up through a long export. A young generation that does not grow and
 * a fixed factor keep a long export's peak where a short one's is (the live data is one page). Maglev
 * (Node 24's middle compiler) waits for five times the calls it usually does before it compiles a
 * function: each compilation keeps memory of its own, and at its usual threshold a long export also
 * has it compile every function called once a page (the request, the page's checks), which a short
 * one never does; the functions called once a row are compiled in both. Set here, once the built-ins a
 * command needs are loaded: as command-line flags they change V8's flag hash, and Node 22 then compiles
 * its own built-in modules from source on every start instead of from their code cache. Set back (to
 * V8's defaults) once the rows are written: the code cache payctl makes at exit carries the flags it
 * was made under, and one made under these was refused by every later run (docs/decisions.md).
 * Returns what sets them back.
 */
function steadyHeap(): () => void {
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--heap-growing-percent=50 --semi-space-growth-factor=1 --invocation-count-for-maglev=2000');
  return () =>
    v8.setFlagsFromString('--heap-growing-percent=0 --semi-space-growth-factor=2 --invocation-count-for-maglev=400');
}

/**
 * Writes a list's rows and says how many: an export the handler prepared (its file, format and
 * summary), else --out (atomically, in the chosen format), else stdout.
 */
async function writeRows(result: ManyResult, settings: Settings, io: IO): Promise<{ rows: number; toStdout: boolean }> {
  const restore = steadyHeap();
  try {
    return await writeRowsTo(result, settings, io);
  } finally {
    restore();
  }
}

async function writeRowsTo(
  result: ManyResult,
  settings: Settings,
  io: IO,
): Promise<{ rows: number; toStdout: boolean }> {
  if (result.out && result.summary) {
    const { writeExport } = await import('../output/export');
    const job = {
      kind: result.kind,
      items: result.items,
      target: result.out,
      format: result.outFormat ?? 'json',
      fields: settings.fields,
      tz: settings.tz,
      tagged: result.tagged,
      summary: result.summary,
    };
    await writeExport(job, io.stderr);
    return { rows: result.summary.rows, toStdout: false };
  }
  if (settings.out) {
    const file = settings.out;
    const rows = await toFile(file, (out) =>
      renderMany(result.kind, result.items, renderOptions(settings, io, out, settings.fields)),
    );
    io.stderr.write(`wrote ${plural(rows, 'row')} to ${file}\n`);
    return { rows, toStdout: false };
  }
  // Assigned, not spread: a spread would read the `tz` getter, and the machine's zone costs ICU some 50 ms.
  const opts = Object.assign(renderOptions(settings, io, io.stdout, settings.fields), { tagged: result.tagged });
  return { rows: await renderMany(result.kind, result.items, opts), toStdout: true };
}

/** The requests --dry-run would send: text for a table, else rows in the chosen format. */
async function renderDryRun(result: Result<'dry-run'>, settings: Settings, io: IO): Promise<void> {
  const requests = result.requests.map(({ method, url, body }) =>
    body === undefined ? { method, url } : { method, url, body },
  );
  if (settings.format === 'table') {
    for (const r of requests)
      await write(io.stdout, `${r.method} ${r.url}${'body' in r ? `\n${JSON.stringify(r.body, null, 2)}` : ''}\n`);
  } else {
    await renderMany('generic', requests, renderOptions(settings, io, io.stdout, undefined));
  }
  io.stderr.write(
    `dry run: ${plural(requests.length, 'request')} shown, nothing sent${result.note ? ` (${result.note})` : ''}\n`,
  );
}

/** Text lines, to --out or stdout. */
async function renderLines(result: Result<'lines'>, settings: Settings, io: IO): Promise<void> {
  // Lines stay lines in a pipe (JSON is only the pipe's default); an explicit -o json asks for JSON.
  const asJson = result.json !== undefined && settings.formatChosen && settings.format === 'json';
  const lines = asJson ? [JSON.stringify(result.json, null, 2)] : result.lines;
  if (settings.out) {
    await toFile(settings.out, async (out) => {
      for (const line of lines) await write(out, `${line}\n`);
      return lines.length;
    });
    io.stderr.write(`wrote ${plural(lines.length, 'line')} to ${settings.out}\n`);
    return;
  }
  for (const line of lines) await write(io.stdout, `${line}\n`);
}

/** A server's first words, then serving until it stops. */
async function renderServe(result: Result<'serve'>, settings: Settings, io: IO): Promise<void> {
  // Scripts read one JSON line as soon as it is out (serving goes on after it); people read text.
  const machine = settings.format === 'json' || settings.format === 'ndjson';
  for (const line of machine ? [JSON.stringify(result.record)] : result.lines) await write(io.stdout, `${line}\n`);
  await result.until;
}
