import { environment } from './topics/environment';
import { exitCodes } from './topics/exit-codes';
import { exports } from './topics/exports';
import { formatting } from './topics/formatting';
import { moneySafety } from './topics/money-safety';
import type { TopicName } from './names';
import type { Topic } from './topic';

/** Every help topic, in the order of `payctl --help`'s list. */
export const TOPICS: Record<TopicName, Topic> = {
  environment,
  'exit-codes': exitCodes,
  formatting,
  exports,
  'money-safety': moneySafety,
};
