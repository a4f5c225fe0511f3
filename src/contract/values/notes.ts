import { LIMITS } from '../limits';
import { err, ok } from './result';
import type { Result } from './result';

const chars = (s: string) => [...s].length;

/**
 * Names every JavaScript object already has (`__proto__`, `constructor`, `toString`, …). As a note
 * key, `notes[key] = value` drops `__proto__` without a word, and code that reads notes (a client's,
 * a webhook handler's) finds the object's own member under the others: not plain names.
 */
const OBJECT_MEMBERS = new Set(['__proto__', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)]);

/** Why `key` is not a note key the service and the code reading notes both keep as given, or undefined. */
export function noteKeyProblem(key: string): string | undefined {
  if (!key.trim()) return 'a note key cannot be empty';
  if (chars(key) > LIMITS.notesValueChars)
    return `note key "${key.slice(0, 20)}…" is longer than ${LIMITS.notesValueChars} characters`;
  if (OBJECT_MEMBERS.has(key))
    return `note key "${key}" is not a plain name (every JavaScript object has a member by that name): pick another`;
  return undefined;
}

/**
 * `--note key=value` pairs (split on the first `=`), within the service's limits, each key a plain
 * name: the one parser of notes a user gives (`--note`, bulk rows, MCP tools, `trigger --set`).
 */
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
    const keyProblem = noteKeyProblem(key);
    if (keyProblem) return err(keyProblem);
    if (chars(value) > LIMITS.notesValueChars)
      return err(`note "${key}" is ${chars(value)} characters; at most ${LIMITS.notesValueChars} are allowed`);
    if (Object.hasOwn(notes, key)) return err(`note "${key}" is given twice`);
    notes[key] = value;
  }
  return ok(notes);
}
