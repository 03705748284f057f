import type { AppRouter } from '../../router/app-router.js';
import { proceduresOf, restInputRules, type ParsedInputSlot, type ProcedureEntry, type RestInputRules } from '../../router/trpc-internals.js';
import { createInputMemo } from '../input-memo.js';

/**
 * The REST routes, read once from the router's OpenAPI meta: the one table that finds the
 * procedure of a call, tells an unknown path (404) from a known path asked with the wrong method
 * (405, with Allow), names the route in logs and metrics, and says which query parameters an
 * operation documents. Matching is trpc-to-openapi's: case-insensitive, trailing slash ignored.
 */
export interface Route extends RestInputRules {
  method: string;
  /** The route's template as the OpenAPI document writes it (`/listing/{platform}/{id}`). */
  template: string;
  procedure: ProcedureEntry;
  /** The parameter names (query, path and header) the document lists; anything else in the query is unknown. */
  parameterNames: ReadonlySet<string>;
  /** Validated inputs of recent GET calls by path and query string (input-memo.ts). */
  parsedInputs: ParsedInputSlot['memo'];
}

export interface RouteMatch {
  /** The template the path matches, whatever the method; null when no route has this path. */
  template: string | null;
  /** The methods routes of this path take (empty: 404). */
  allowed: readonly string[];
  /** The route of this method and path, if any. */
  route: Route | null;
  /** Path parameters as sent (still percent-encoded). */
  pathParams: Record<string, string>;
}

interface PathRoutes {
  template: string;
  pattern: RegExp;
  byMethod: Map<string, Route>;
}

type DocumentedOperations = Record<string, Record<string, { parameters?: { name: string }[] }>>;

export function routeTable(router: AppRouter, documented: DocumentedOperations): { match(method: string, path: string): RouteMatch } {
  const paths = new Map<string, PathRoutes>();
  for (const procedure of proceduresOf(router).values()) {
    const openapi = procedure.meta?.openapi;
    if (!openapi || openapi.enabled === false || procedure.type === 'subscription') continue;
    const template = `/${openapi.path.replace(/^\/|\/$/g, '')}`;
    const names = documented[template]?.[openapi.method.toLowerCase()]?.parameters ?? [];
    const route: Route = { method: openapi.method, template, procedure, parameterNames: new Set(names.map((p) => p.name)), parsedInputs: createInputMemo(), ...restInputRules(procedure.input) };
    const known = paths.get(template.toLowerCase());
    if (known) known.byMethod.set(route.method, route);
    else {
      const pattern = new RegExp(`^${template.replace(/\{(\w+)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}/?$`, 'i');
      paths.set(template.toLowerCase(), { template, pattern, byMethod: new Map([[route.method, route]]) });
    }
  }
  // Paths without parameters (`/search`, most of every call) are looked up, not matched against
  // every pattern; a parameterised template that matches a static one (`/jobs/{id}`, `/jobs/x`)
  // leaves it to matching, decided once here.
  const parameterised = [...paths.values()].filter((p) => p.template.includes('{'));
  const exact = new Map([...paths].filter(([, p]) => !p.template.includes('{') && !parameterised.some((q) => q.pattern.test(p.template))));
  const NONE: RouteMatch = { template: null, allowed: [], route: null, pathParams: {} };
  const answer = (p: PathRoutes, method: string, pathParams: Record<string, string>): RouteMatch => ({ template: p.template, allowed: [...p.byMethod.keys()], route: p.byMethod.get(method) ?? null, pathParams });

  return {
    match(method, path) {
      const hit = exact.get((path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase());
      if (hit) return answer(hit, method, {});
      let found = null as RouteMatch | null;
      for (const p of paths.values()) {
        const m = p.pattern.exec(path);
        if (!m) continue;
        const next = answer(p, method, { ...(m.groups ?? {}) });
        // Two templates taking one path (none do today) answer together, the first one's route first.
        found = found ? { ...found, allowed: [...found.allowed, ...next.allowed], route: found.route ?? next.route, pathParams: found.route ? found.pathParams : next.pathParams } : next;
      }
      return found ?? NONE;
    },
  };
}
