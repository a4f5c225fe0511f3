import { err, ok } from './result';
import type { Result } from './result';

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON text parsed, or the parser's complaint. */
export function parseJson(text: string): Result<unknown> {
  try {
    return ok(JSON.parse(text));
  } catch (e) {
    return err((e as Error).message);
  }
}

/**
 * The first key given twice in one object of a JSON text, with the path of the object holding it
 * (`amount`, `notes.ref`): JSON.parse keeps only the last of them, so a row `{"amount":100,"amount":90000}`
 * would silently mean 90000. Undefined when every object's keys are distinct. A scan of the text, not a
 * parse: call it on text JSON.parse accepted.
 */
export function repeatedKey(text: string): string | undefined {
  const stack: Array<{ keys: Set<string>; path: string[] } | undefined> = [];
  let expectKey = false;
  let lastKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (expectKey && top) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return [...top.path, key].join('.');
        top.keys.add(key);
        lastKey = key;
        expectKey = false;
      }
      i = j;
    } else if (ch === '{') {
      const parent = stack.at(-1);
      const path = parent ? [...parent.path, ...(lastKey === undefined ? [] : [lastKey])] : [];
      stack.push({ keys: new Set(), path });
      expectKey = true;
    } else if (ch === '[') {
      stack.push(undefined);
      lastKey = undefined;
    } else if (ch === '}' || ch === ']') {
      stack.pop();
      expectKey = false;
    } else if (ch === ',') expectKey = stack.at(-1) !== undefined;
  }
  return undefined;
}
