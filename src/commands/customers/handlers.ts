import { UsageError } from '../../contract/errors';
import type { BodyOf } from '../../contract/endpoints';
import { sendOrShow } from '../check';
import type { Context } from '../context';
import { idArg, notesFlag } from '../flags';
import { exportProgress, listing, listResult, pageQuery } from '../listing';
import type { PageOptions } from '../listing';
import type { CommandResult } from '../result';

export async function listCustomers(opts: PageOptions, ctx: Context): Promise<CommandResult> {
  const page = await pageQuery(ctx, opts, 'customer');
  const progress = exportProgress(ctx, page);
  const result = await listing(ctx, 'listCustomers', page, {}, undefined, progress);
  return 'dryRun' in result ? result.dryRun : listResult(ctx, 'customer', 'customers', page, result, progress);
}

export interface GetCustomerOptions {
  id: string;
}

export async function getCustomer(opts: GetCustomerOptions, ctx: Context): Promise<CommandResult> {
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('getCustomer', { params: { id: idArg(opts.id, 'customer') } }), 'customer');
}

export interface CreateCustomerOptions {
  name: string;
  email?: string;
  contact?: string;
  gstin?: string;
  notes: string[];
  /** Refuse a customer whose e-mail and phone are taken; otherwise that customer is the answer. */
  failExisting: boolean;
}

export async function createCustomer(opts: CreateCustomerOptions, ctx: Context): Promise<CommandResult> {
  const body: BodyOf<'createCustomer'> = {
    name: opts.name.trim(),
    email: opts.email?.trim(),
    contact: opts.contact?.trim(),
    gstin: opts.gstin?.trim().toUpperCase(),
    notes: notesFlag(opts.notes),
    fail_existing: opts.failExisting ? 1 : 0,
  };
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('createCustomer', { body }), 'customer');
}

export interface EditCustomerOptions {
  id: string;
  name?: string;
  email?: string;
  contact?: string;
}

export async function editCustomer(opts: EditCustomerOptions, ctx: Context): Promise<CommandResult> {
  const id = idArg(opts.id, 'customer');
  const body: BodyOf<'editCustomer'> = {
    name: opts.name?.trim(),
    email: opts.email?.trim(),
    contact: opts.contact?.trim(),
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to change: give --name, --email or --contact');
  const api = await ctx.api();
  return sendOrShow(ctx, api, api.prepare('editCustomer', { params: { id }, body }), 'customer');
}
