import { UsageError } from '../contract/errors';
import { defaultColumns } from './columns';
import type { ResourceKind } from './columns';
import { distance } from '../contract/values/did-you-mean';
import { KINDS } from '../contract/kinds';

const MONEY = /^(amount|amount_\w+|fee|tax|credit|debit|balance)$/;
const TIME = /_at$/;

/** Every column `--fields` may name for this kind, derived ones included; undefined when any is allowed. */
export function knownFields(kind: ResourceKind): { names: string[]; objects: string[] } | undefined {
  const rec = KINDS[kind].fields;
  if (!rec) return undefined;
  const names = new Set<string>();
  const parent = KINDS[kind].parent ? [KINDS[kind].parent.key] : [];
  for (const f of [...defaultColumns(kind).map((c) => c.key), ...rec.plain, ...parent]) {
    names.add(f);
    if (MONEY.test(f) && !/^amount_(display|iso|local)$/.test(f)) names.add(`${f}_display`);
    if (TIME.test(f)) {
      names.add(`${f}_iso`);
      names.add(`${f}_local`);
    }
  }
  return { names: [...names], objects: [...rec.objects] };
}

/** The closest known name, if it is close enough to be what was meant. */
export function didYouMean(name: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(name, n);
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** Refuses (exit 2, before anything is sent) a --fields name this kind's rows can never fill. */
export function checkFields(kind: ResourceKind, fields: string[] | undefined): void {
  const known = knownFields(kind);
  if (!fields?.length || !known) return;
  for (const f of fields) {
    const root = f.split('.')[0]!;
    if (f.includes('.') ? known.objects.includes(root) : known.names.includes(f)) continue;
    const guess = didYouMean(f, [...known.names, ...known.objects.map((o) => `${o}.`)]);
    const hint = guess ? ` (did you mean ${guess.endsWith('.') ? `${guess}KEY` : guess}?)` : '';
    throw new UsageError(
      `--fields: ${kind.replace('_', ' ')} rows have no column "${f}"${hint}; columns: ${known.names.join(', ')}, ${known.objects.map((o) => `${o}.KEY`).join(', ')}`,
    );
  }
}
