// V8 keeps a source of ASCII alone as one byte a character, and Node decodes it on a fast path: one
// character beyond it (a ₹ in a regular expression, which esbuild leaves as it is) made reading
// dist/run.cjs, 790 kB, take several times as long on every call (docs/decisions.md). Both builds check
// what they write.
import { readFileSync } from 'node:fs';

/** Throws, naming the character and where it is, unless the built file `path` (from `entry`) is ASCII. */
export function asciiOnly(path, entry) {
  const text = readFileSync(path, 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0)
    throw new Error(
      `${path} (from ${entry}) holds ${JSON.stringify(text[at])} near ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}: write it as a \\u escape`,
    );
}
