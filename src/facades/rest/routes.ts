/**
 * The REST routes, read from the OpenAPI document, to tell an unknown path (404) from a known
 * path asked with the wrong method (405, with Allow). Matching mirrors trpc-to-openapi:
 * case-insensitive, trailing slash ignored.
 */
export interface RouteTable {
  allowedMethods(path: string): string[];
}

export function routeTable(paths: Record<string, Record<string, unknown>>): RouteTable {
  const routes = Object.entries(paths).map(([template, ops]) => ({
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+').replace(/\/$/, '')}/?$`, 'i'),
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
  }));
  return {
    allowedMethods(path) {
      return routes.filter((r) => r.regex.test(path)).flatMap((r) => r.methods);
    },
  };
}
