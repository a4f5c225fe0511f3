/**
 * A help topic (`payctl help environment`) as blocks that render to a terminal here and to Markdown and
 * roff for the reference (src/cli/reference), so the program and the documents say the same thing.
 * Text may hold `code` spans; tables have two columns.
 */
export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'table'; head: readonly [string, string]; rows: ReadonlyArray<readonly [string, string]> }
  | { kind: 'list'; items: readonly string[] }
  | { kind: 'example'; lines: readonly string[] };

export interface Topic {
  name: string;
  title: string;
  /** Where the Markdown page goes, from the repository's root. */
  page: string;
  blocks: readonly Block[];
}

export const heading = (text: string): Block => ({ kind: 'heading', text });
export const text = (...sentences: string[]): Block => ({ kind: 'text', text: sentences.join(' ') });
export const list = (...items: string[]): Block => ({ kind: 'list', items });
export const example = (...lines: string[]): Block => ({ kind: 'example', lines });
export const table = (head: readonly [string, string], rows: ReadonlyArray<readonly [string, string]>): Block => ({
  kind: 'table',
  head,
  rows,
});

const plain = (s: string) => s.replace(/`([^`]*)`/g, '$1');

/** Words of `s` in lines of at most `width` columns (a longer word stands alone), each after `indent`. */
export function wrap(s: string, width: number, indent = '', first = indent): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of s.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The topic as `payctl help NAME` prints it, wrapped between words at `width` columns. */
export function topicText(topic: Topic, width = 80): string {
  const out: string[] = [topic.title.toUpperCase(), ''];
  for (const block of topic.blocks) {
    if (block.kind === 'heading') out.push(block.text.toUpperCase());
    else if (block.kind === 'text') out.push(...wrap(plain(block.text), width, '  '));
    else if (block.kind === 'list')
      for (const item of block.items) out.push(...wrap(plain(item), width, '    ', '  - '));
    else if (block.kind === 'example') out.push(...block.lines.map((l) => `  ${l}`));
    else {
      const terms = block.rows.map(([term]) => plain(term));
      const pad = Math.min(Math.max(...terms.map((t) => t.length)), 24) + 4;
      block.rows.forEach(([, what], i) => {
        const term = `  ${terms[i]}`;
        const indent = ' '.repeat(pad);
        if (term.length + 2 > pad) out.push(term, ...wrap(plain(what), width, indent));
        else out.push(...wrap(plain(what), width, indent, term.padEnd(pad)));
      });
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
