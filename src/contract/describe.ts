import type * as z from 'zod/mini';

type Issue = z.core.$ZodIssue;

const fieldName = (path: PropertyKey[]) =>
  path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    '',
  ) || 'request';

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** For a union, the branch that got furthest (longest path) says most about what was meant. */
function unionBranchIssue(issue: Issue & { code: 'invalid_union' }): Issue | undefined {
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const custom = /^[a-z]/.test(first.message);
    if (!best || first.path.length > best.path.length || (first.path.length === best.path.length && custom))
      best = first;
  }
  return best && (best.path.length > 0 || /^[a-z]/.test(best.message))
    ? { ...best, path: [...issue.path, ...best.path] }
    : undefined;
}

function sentence(issue: Issue, input: unknown): string {
  const field = fieldName(issue.path);
  const value = valueAt(input, issue.path);
  // Our schemas give their own messages in lower case; zod's defaults start with a capital.
  if (/^[a-z]/.test(issue.message) && value !== undefined) return `The ${field} ${issue.message}.`;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `The ${field} field is required.`;
      if (issue.expected === 'number' || issue.expected === 'int') return `The ${field} must be an integer.`;
      return `The ${field} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}.`;
    case 'too_big':
      if (issue.origin === 'string') return `The ${field} may not be greater than ${issue.maximum} characters.`;
      if (issue.origin === 'array') return `The ${field} may not have more than ${issue.maximum} items.`;
      return `The ${field} may not be greater than ${issue.maximum}.`;
    case 'too_small':
      if (issue.origin === 'string') return `The ${field} field is required.`;
      if (issue.origin === 'array') return `The ${field} must have at least ${issue.minimum} item(s).`;
      return `The ${field} must be at least ${issue.minimum}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `The ${field} must be ${String(issue.values[0])}.`
        : `The ${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_union': {
      const inner = unionBranchIssue(issue);
      if (inner) return sentence(inner, input);
      if (value === undefined) return `The ${field} field is required.`;
      const shown = value !== null && typeof value === 'object' ? '' : `: ${JSON.stringify(value)?.slice(0, 40)}`;
      return `The ${field} is invalid${shown}.`;
    }
    default:
      if (value === undefined && issue.path.length) return `The ${field} field is required.`;
      return `The ${field} is invalid.`;
  }
}

/**
 * One precise sentence for the first problem of a rejected request, in the service's own style
 * ("The amount field is required."), so the client's exit-2 message and the sandbox's 400 read alike.
 */
export function describeIssue(error: z.core.$ZodError, input: unknown): string {
  const issue = error.issues[0];
  return issue ? sentence(issue, input) : 'The request is invalid.';
}
