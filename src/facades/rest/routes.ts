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
  // Paths without parameters (`/search`, most of every call) are looked up, not matched against
  // every route's pattern: both questions are asked on every request.
  const exact = new Map<string, { template: string; methods: string[] }>();
  for (const r of routes) {
    if (r.template.includes('{')) continue;
    const key = r.template.replace(/\/$/, '').toLowerCase();
    const known = exact.get(key);
    exact.set(key, known ? { template: known.template, methods: [...known.methods, ...r.methods] } : { template: r.template, methods: r.methods });
  }
  // A parameterised template may match a static path too (`/jobs/{id}` and `/jobs/x`): decided once
  // per static path here, so a call looks its path up instead of testing every pattern.
  const parameterised = routes.filter((r) => r.template.includes('{'));
  for (const [key, hit] of exact) if (parameterised.some((r) => r.regex.test(hit.template))) exact.delete(key);
  const exactOf = (path: string) => exact.get((path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase());
  return {
    allowedMethods(path) {
      return exactOf(path)?.methods ?? routes.filter((r) => r.regex.test(path)).flatMap((r) => r.methods);
    },
    templateOf(path) {
      const hit = exactOf(path);
      return hit ? hit.template : (routes.find((r) => r.regex.test(path))?.template ?? null);
    },
    parameterNames(template, method) {
      return names.get(`${method} ${template}`) ?? new Set();
    },
  };
}
