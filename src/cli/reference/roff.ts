import type { Block, Topic } from '../help/topic';
import type { CommandDoc, Item } from './model';

/** Plain text for roff: backslashes and hyphens escaped, `code` in bold, no line starting a request, ASCII only. */
export function esc(s: string): string {
  return (
    s
      .replace(/\\/g, '\\e')
      .replace(/-/g, '\\-')
      .replace(/`([^`]*)`/g, '\\fB$1\\fR')
      .replace(/^([.'])/gm, '\\&$1')
      // Plain ASCII roff: any other character (₹, …) as its Unicode escape, read by every troff.
      .replace(/[^\x00-\x7f]/gu, (ch) => `\\[u${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
  );
}

const header = (page: string, description: string) => [
  `.TH "${esc(page.toUpperCase())}" "1" "" "payctl" "payctl manual"`,
  '.SH NAME',
  `${esc(page)} \\- ${esc(description)}`,
];

const items = (list: Item[]) => list.flatMap((i) => ['.TP', `.B ${esc(i.term)}`, esc(i.description)]);
const example = (lines: readonly string[]) => ['.PP', '.RS 4', '.nf', ...lines.map(esc), '.fi', '.RE'];

function block(b: Block): string[] {
  if (b.kind === 'heading') return ['.SS', esc(b.text)];
  if (b.kind === 'text') return ['.PP', esc(b.text)];
  if (b.kind === 'list') return b.items.flatMap((i) => ['.IP \\(bu 2', esc(i)]);
  if (b.kind === 'example') return example(b.lines);
  return b.rows.flatMap(([term, what]) => ['.TP', `.B ${esc(term.replace(/`/g, ''))}`, esc(what)]);
}

function synopsis(doc: CommandDoc): string[] {
  const rest = doc.usage.slice(doc.path.length).trim();
  return ['.SH SYNOPSIS', `.B ${esc(doc.path)}`, ...(rest ? [esc(rest)] : [])];
}

export function commandMan(doc: CommandDoc): string {
  const out = [...header(doc.page, doc.description), ...synopsis(doc), '.SH DESCRIPTION', esc(doc.description)];
  for (const note of doc.notes) out.push('.PP', esc(note));
  if (doc.commands.length) {
    out.push('.SH COMMANDS');
    for (const c of doc.commands)
      out.push('.TP', `.B ${esc(c.term)}`, `${esc(c.description)}; see \\fB${esc(c.page)}\\fR(1)`);
  }
  if (doc.arguments.length) out.push('.SH ARGUMENTS', ...items(doc.arguments));
  if (doc.options.length) out.push('.SH OPTIONS', ...items(doc.options));
  out.push('.PP', 'The global options are taken too: see \\fBpayctl\\fR(1).');
  if (doc.examples.length) out.push('.SH EXAMPLES', ...example(doc.examples));
  out.push('.SH SEE ALSO', `\\fB${esc(doc.parent ?? 'payctl')}\\fR(1)`);
  return `${out.join('\n')}\n`;
}

/** payctl(1): the program, its global options, its commands, and the environment and exit-code topics. */
export function programMan(docs: CommandDoc[], environment: Topic, exitCodes: Topic, topics: readonly Topic[]): string {
  const [root, ...commands] = docs;
  const out = [...header('payctl', root!.description), ...synopsis(root!), '.SH DESCRIPTION', esc(root!.description)];
  out.push('.SH OPTIONS', '.PP', 'Global options go before or after the command.', ...items(root!.options));
  out.push('.SH COMMANDS');
  for (const c of commands)
    out.push('.TP', `.B ${esc(c.path)}`, `${esc(c.description)}; see \\fB${esc(c.page)}\\fR(1)`);
  out.push('.SH HELP TOPICS', '.PP', '\\fBpayctl help\\fR \\fITOPIC\\fR prints one of:');
  for (const t of topics) out.push('.TP', `.B ${esc(t.name)}`, esc(t.title));
  out.push('.SH ENVIRONMENT', ...environment.blocks.flatMap(block));
  out.push('.SH EXIT STATUS', ...exitCodes.blocks.flatMap(block));
  out.push('.SH SEE ALSO', commands.map((c) => `\\fB${esc(c.page)}\\fR(1)`).join(',\n'));
  return `${out.join('\n')}\n`;
}
