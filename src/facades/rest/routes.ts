/**
 * The REST routes, read from the OpenAPI document, to tell an unknown path (404) from a known
 * path asked with the wrong method (405, with Allow). Matching mirrors trpc-to-openapi:
 * case-insensitive, trailing slash ignored.
 */
export interface RouteTable {
  allowedMethods(path: string): string[];
  /** The route template a path matches (`/listing/{platform}/{id}`), for logs and metrics. */
  templateOf(path: string): string | null;
  /** The parameter names (query and path) an operation reads; anything else in the query is unknown. */
  parameterNames(template: string, method: string): ReadonlySet<string>;
}

type Operation = { parameters?: { name: string }[] };

export function routeTable(paths: Record<string, Record<string, unknown>>): RouteTable {
  const routes = Object.entries(paths).map(([template, ops]) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+').replace(/\/$/, '')}/?$`, 'i'),
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
  }));
  const names = new Map<string, ReadonlySet<string>>();
  for (const [template, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops as Record<string, Operation>)) {
      names.set(`${method.toUpperCase()} ${template}`, new Set((op.parameters ?? []).map((p) => p.name)));
    }
  }
  return {
    allowedMethods(path) {
      return routes.filter((r) => r.regex.test(path)).flatMap((r) => r.methods);
    },
    templateOf(path) {
      return routes.find((r) => r.regex.test(path))?.template ?? null;
    },
    parameterNames(template, method) {
      return names.get(`${method} ${template}`) ?? new Set();
    },
  };
}
