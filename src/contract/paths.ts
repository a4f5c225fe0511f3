// Path patterns of the endpoint table (`/payments/:id/refund`), kept apart from the schemas so that
// code which only matches paths does not load the validation library.

/** Fills `:id` with the encoded identifier; an id is never allowed to add path segments. */
export function endpointPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([a-z_]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key}`);
    return encodeURIComponent(value);
  });
}

/** Matches a concrete path against an endpoint's pattern; returns its parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(g);
      } catch {
        return null;
      }
      if (!decoded) return null;
      params[w.slice(1)] = decoded;
    } else if (w !== g) return null;
  }
  return params;
}
