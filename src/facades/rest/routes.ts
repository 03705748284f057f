/**
 * The REST routes, read from the OpenAPI document, to tell an unknown path (404) from a known
 * path asked with the wrong method (405, with Allow). Matching mirrors trpc-to-openapi:
 * case-insensitive, trailing slash ignored.
 */
export interface RouteTable {
  allowedMethods(path: string): string[];
  /** The route template a path matches (`/listing/{platform}/{id}`), for logs and metrics. */
  templateOf(path: string): string | null;
}

export function routeTable(paths: Record<string, Record<string, unknown>>): RouteTable {
  const routes = Object.entries(paths).map(([template, ops]) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+').replace(/\/$/, '')}/?$`, 'i'),
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
  }));
  return {
    allowedMethods(path) {
      return routes.filter((r) => r.regex.test(path)).flatMap((r) => r.methods);
    },
    templateOf(path) {
      return routes.find((r) => r.regex.test(path))?.template ?? null;
    },
  };
}
