import type { IO, Settings } from './commands/context';
import type { CommandResult } from './commands/result';
import { renderMany, renderOne } from './output/render';
import type { RenderOptions } from './output/render';

function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once('drain', () => resolve());
  });
}

/** Renders a handler's result: data to stdout in the chosen format, messages to stderr. */
export async function emit(result: CommandResult, settings: Settings, io: IO): Promise<void> {
  // `tz` stays a getter: finding the machine's zone costs ~10 ms, and JSON output never needs it.
  const to = (out: NodeJS.WritableStream, fields: string[] | undefined): RenderOptions => ({
    format: settings.format,
    fields,
    get tz() {
      return settings.tz;
    },
    out,
  });
  const opts = to(io.stdout, settings.fields);
  switch (result.type) {
    case 'one':
      await renderOne(result.kind, result.data, opts);
      return;
    case 'many': {
      if (result.out && result.summary) {
        const { writeExport } = await import('./output/export');
        const job = { kind: result.kind, items: toAsync(result.items), target: result.out, format: result.outFormat ?? 'json', fields: settings.fields, tz: settings.tz, tagged: result.tagged, summary: result.summary };
        await writeExport(job, io.stderr);
        const after = result.after?.(result.summary.rows);
        if (after) io.stderr.write(`${after}\n`);
        await result.finish?.();
        return;
      }
      const rows = await renderMany(result.kind, result.items, { ...opts, tagged: result.tagged });
      const after = result.after?.(rows);
      if (after) io.stderr.write(`${after}\n`);
      else if (rows === 0 && settings.format === 'table') io.stderr.write('(no results)\n');
      await result.finish?.();
      return;
    }
    case 'dry-run': {
      const requests = result.requests.map(({ method, url, body }) => (body === undefined ? { method, url } : { method, url, body }));
      if (settings.format === 'table') {
        for (const r of requests) await write(io.stdout, `${r.method} ${r.url}${'body' in r ? `\n${JSON.stringify(r.body, null, 2)}` : ''}\n`);
      } else {
        await renderMany('generic', requests, to(io.stdout, undefined));
      }
      io.stderr.write(`dry run: ${requests.length} request(s) shown, nothing sent${result.note ? ` (${result.note})` : ''}\n`);
      return;
    }
    case 'lines':
      for (const line of result.lines) await write(io.stdout, `${line}\n`);
      return;
    case 'done':
      if (result.message) io.stderr.write(`${result.message}\n`);
      return;
    case 'serve':
      for (const line of result.lines) await write(io.stdout, `${line}\n`);
      await result.until;
  }
}

async function* toAsync<T>(items: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
