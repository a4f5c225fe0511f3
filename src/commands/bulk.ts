import { UsageError } from '../api/errors';
import type { Context } from './context';
import type { CommandResult, Input } from './result';

export async function bulk(_op: 'capture' | 'refund', _input: Input, _ctx: Context): Promise<CommandResult> {
  throw new UsageError('one payment id at a time for now');
}
