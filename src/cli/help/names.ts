/** The help topics, as `payctl --help` lists them; their text loads only when one is asked for. */
export const TOPIC_NAMES = [
  ['environment', 'environment variables, configuration files and directories, proxies and CAs'],
  ['exit-codes', 'what each exit status means, for scripts'],
  ['formatting', 'output formats, tables, --fields, money, and the times --from and --to take'],
  ['exports', 'complete lists, --out files, CSV and xlsx exports, statements'],
  ['money-safety', 'what payctl guarantees when an answer is lost, and how to check and resume'],
] as const;

export type TopicName = (typeof TOPIC_NAMES)[number][0];

export const isTopic = (name: string | undefined): name is TopicName => TOPIC_NAMES.some(([n]) => n === name);

/** The lines `payctl --help` ends with. */
export const topicsHelp = () =>
  `\nHelp topics (payctl help TOPIC):\n${TOPIC_NAMES.map(([n, s]) => `  ${n.padEnd(14)}${s}`).join('\n')}\n`;
