import { LIMITS } from '../limits';
import { err, ok } from './result';
import type { Result } from './result';

const chars = (s: string) => [...s].length;

/** `--note key=value` pairs (split on the first `=`), within the service's limits. */
export function parseNotes(pairs: string[]): Result<Record<string, string>> {
  if (pairs.length > LIMITS.notesPairs)
    return err(`at most ${LIMITS.notesPairs} notes are allowed: got ${pairs.length}`);
  const notes: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 0) return err(`a note is key=value: got ${JSON.stringify(pair)}`);
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1);
    if (!key) return err(`a note needs a key before "=": got ${JSON.stringify(pair)}`);
    if (chars(key) > LIMITS.notesValueChars)
      return err(`note key "${key.slice(0, 20)}…" is longer than ${LIMITS.notesValueChars} characters`);
    if (chars(value) > LIMITS.notesValueChars)
      return err(`note "${key}" is ${chars(value)} characters; at most ${LIMITS.notesValueChars} are allowed`);
    if (Object.hasOwn(notes, key)) return err(`note "${key}" is given twice`);
    notes[key] = value;
  }
  return ok(notes);
}
