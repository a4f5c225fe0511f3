/** What leaves the sandbox: the record without its bookkeeping keys (those starting with `_`). */
export function publicView<T extends object>(record: T): Public<T> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record)) if (k[0] !== '_') out[k] = (record as Record<string, unknown>)[k];
  return out as Public<T>;
}

/** A record's type without its bookkeeping keys. */
export type Public<T> = { [K in keyof T as K extends `_${string}` ? never : K]: T[K] };

/** A page of records as the service answers a list. */
export function collection<T extends object>(records: T[]) {
  const items = records.map(publicView);
  return { entity: 'collection' as const, count: items.length, items };
}

/** The page a list query asks for: ten newest by default. */
export const pageWindow = (q: { count?: number; skip?: number; from?: number; to?: number }) => ({
  count: q.count ?? 10,
  skip: q.skip ?? 0,
  from: q.from,
  to: q.to,
});
