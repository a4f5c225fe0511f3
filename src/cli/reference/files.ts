import type { IO } from '../../commands/context';
import { TOPICS } from '../help/index';
import { ADMIN_API_PAGE, adminApiPage } from './admin-api';
import { createProgram } from '../program';
import { commandPage, indexPage, topicPage } from './markdown';
import { commandDocs } from './model';
import { commandMan, programMan } from './roff';

/** The directories the reference owns: every file in them is generated (a stale one is removed). */
export const REFERENCE_DIRS = ['docs/reference', 'man'];

const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
const io = {
  stdout: quiet,
  stderr: quiet,
  stdin: process.stdin,
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
} as IO;

/**
 * Every generated document, by path from the repository's root: the Markdown reference and man page of
 * each command, made from the same command tree as the help and the completions, and the help topics'
 * pages. `npm run docs` writes them; a unit test compares them with the files in the repository.
 */
export function referenceFiles(): Map<string, string> {
  const program = createProgram(() => (async () => undefined) as never, io, {});
  const docs = commandDocs(program);
  const topics = Object.values(TOPICS);
  const files = new Map<string, string>();
  files.set('docs/reference/README.md', indexPage(docs, topics));
  files.set('man/payctl.1', programMan(docs, TOPICS.environment, TOPICS['exit-codes'], topics));
  for (const doc of docs.slice(1)) {
    files.set(`docs/reference/${doc.page}.md`, commandPage(doc));
    files.set(`man/${doc.page}.1`, commandMan(doc));
  }
  for (const topic of topics) files.set(topic.page, topicPage(topic));
  files.set(ADMIN_API_PAGE, adminApiPage());
  return files;
}

/** package.json's `man`: the man pages npm installs. */
export const manPages = (files: Map<string, string>) => [...files.keys()].filter((f) => f.startsWith('man/')).sort();
