import type { IO, Settings } from '../commands/context';
import type { CommandResult } from '../commands/result';
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

/** Renders a handler's result: data to stdout in the chosen format, messages to stderr. */
export async function renderResult(result: CommandResult, settings: Settings, io: IO): Promise<void> {
  // `tz` stays a getter: finding the machine's zone asks ICU, and JSON output never needs it.
  const to = (out: NodeJS.WritableStream, fields: string[] | undefined): RenderOptions => ({
    format: settings.format,
    fields,
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
  });
  const opts = to(io.stdout, settings.fields);
  switch (result.type) {
    case 'one': {
      const file = result.out ?? settings.out;
      if (file) {
        const { writeAtomically } = await import('../output/atomic-file');
        await writeAtomically(
          file,
          async (out) => (await renderOne(result.kind, result.data, to(out, settings.fields)), 1),
        );
        io.stderr.write(`wrote ${file}\n`);
      } else await renderOne(result.kind, result.data, opts);
      await hint(result.after?.(), settings, io);
      await result.finish?.();
      return;
    }
    case 'many': {
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
        await hint(result.after?.(result.summary.rows), settings, io);
        await result.finish?.();
        return;
      }
      if (settings.out) {
        const file = settings.out;
        const { writeAtomically } = await import('../output/atomic-file');
        const rows = await writeAtomically(file, (out) =>
          renderMany(result.kind, result.items, to(out, settings.fields)),
        );
        io.stderr.write(`wrote ${plural(rows, 'row')} to ${file}\n`);
        await hint(result.after?.(rows), settings, io);
        await result.finish?.();
        return;
      }
      const rows = await renderMany(result.kind, result.items, { ...opts, tagged: result.tagged });
      const after = result.after?.(rows);
      if (after) await hint(after, settings, io);
      else if (rows === 0 && settings.format === 'table') io.stderr.write('(no results)\n');
      await result.finish?.();
      return;
    }
    case 'dry-run': {
      const requests = result.requests.map(({ method, url, body }) =>
        body === undefined ? { method, url } : { method, url, body },
      );
      if (settings.format === 'table') {
        for (const r of requests)
          await write(io.stdout, `${r.method} ${r.url}${'body' in r ? `\n${JSON.stringify(r.body, null, 2)}` : ''}\n`);
      } else {
        await renderMany('generic', requests, to(io.stdout, undefined));
      }
      io.stderr.write(
        `dry run: ${plural(requests.length, 'request')} shown, nothing sent${result.note ? ` (${result.note})` : ''}\n`,
      );
      return;
    }
    case 'lines': {
      // Lines stay lines in a pipe (JSON is only the pipe's default); an explicit -o json asks for JSON.
      const asJson = result.json !== undefined && settings.formatChosen && settings.format === 'json';
      const lines = asJson ? [JSON.stringify(result.json, null, 2)] : result.lines;
      if (settings.out) {
        const { writeAtomically } = await import('../output/atomic-file');
        await writeAtomically(settings.out, async (out) => {
          for (const line of lines) await write(out, `${line}\n`);
          return lines.length;
        });
        io.stderr.write(`wrote ${plural(lines.length, 'line')} to ${settings.out}\n`);
        return;
      }
      for (const line of lines) await write(io.stdout, `${line}\n`);
      return;
    }
    case 'done':
      if (result.message) io.stderr.write(`${result.message}\n`);
      return;
    case 'serve': {
      // Scripts read one JSON line as soon as it is out (serving goes on after it); people read text.
      const machine = settings.format === 'json' || settings.format === 'ndjson';
      for (const line of machine ? [JSON.stringify(result.record)] : result.lines) await write(io.stdout, `${line}\n`);
      await result.until;
    }
  }
}
