import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/contract';
import { adminEndpoints } from '../../../src/contract/admin-api';
import { routes } from '../../../src/sandbox/routes';

// The compiler checks the route table against the contract (RouteTable); this is its run-time twin,
// so a table filled through a cast or a spread still cannot miss an endpoint.
describe('sandbox route table', () => {
  it('has a handler for every endpoint of the contract, and nothing else', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(endpoints).sort());
    for (const handler of Object.values(routes)) expect(typeof handler).toBe('function');
  });

  it('names each admin endpoint by one method and path under /_sandbox', () => {
    const seen = Object.values(adminEndpoints).map((e) => `${e.method} ${e.path}`);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
