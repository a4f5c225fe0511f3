import type { EndpointName } from '../contract/endpoints';
import { UsageError } from '../contract/errors';
import type { ResourceKind } from '../output/columns';
import { sendOrShow } from './check';
import type { Context } from './context';
import { idArg, notesFlag } from './flags';
import type { CommandResult } from './result';

export interface EditNotesOptions {
  id: string;
  notes: string[];
}

type Editable = 'order' | 'payment' | 'refund';
const ENDPOINT = { order: 'editOrder', payment: 'editPayment', refund: 'editRefund' } as const satisfies Record<
  Editable,
  EndpointName
>;

/**
 * `orders|payments|refunds edit ID --note k=v`: the service's PATCH, which changes notes only and merges
 * them into the record's (a key given again takes its new value). The record as it is now is the answer.
 */
export async function editNotes(opts: EditNotesOptions, ctx: Context, kind: Editable): Promise<CommandResult> {
  const id = idArg(opts.id, kind);
  const notes = notesFlag(opts.notes);
  if (!notes) throw new UsageError('give at least one --note key=value: notes are all the service lets change');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare(ENDPOINT[kind], { params: { id }, body: { notes } }), kind as ResourceKind);
}
