export function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return row[b.length]!;
}

/** ` (did you mean "amount"?)` when a known name is close. */
export function didYouMean(name: string, known: string[]): string {
  const best = known.map((k) => ({ k, d: distance(name.toLowerCase(), k) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? ` (did you mean "${best.k}"?)` : '';
}
