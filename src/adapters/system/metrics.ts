import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LegStatus } from '../../domain/model/common.js';
import type { Operation, Platform } from '../../domain/platforms.js';

/**
 * Prometheus metrics, one registry per process (passed in Deps, never a module global).
 * Cache hit ratio: sum(ads_leg_duration_seconds_count{cached="true"}) / sum(ads_leg_duration_seconds_count).
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({ name: 'ads_http_requests_total', help: 'HTTP requests by face, route and status.', labelNames: ['face', 'route', 'status'], registers });
  const legs = new Histogram({
    name: 'ads_leg_duration_seconds',
    help: 'Platform leg latency by platform, operation, status and whether it came from cache.',
    labelNames: ['platform', 'operation', 'status', 'cached'],
    buckets: [0.001, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const formatErrors = new Counter({
    name: 'ads_upstream_format_errors_total',
    help: 'Platform answers the adapter could not read (a format change upstream), by platform and operation.',
    labelNames: ['platform', 'operation'],
    registers,
  });
  const credits = new Counter({ name: 'ads_credits_charged_total', help: 'Credits charged, by operation.', labelNames: ['operation'], registers });
  return {
    registry,
    observeRequest(face: string, route: string, status: number): void {
      requests.inc({ face, route, status: String(status) });
    },
    observeLeg(platform: Platform, operation: Operation, status: LegStatus, cached: boolean, ms: number): void {
      legs.observe({ platform, operation, status, cached: String(cached) }, ms / 1000);
    },
    observeFormatError(platform: Platform, operation: Operation): void {
      formatErrors.inc({ platform, operation });
    },
    observeCredits(operation: string, amount: number): void {
      if (amount > 0) credits.inc({ operation }, amount);
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
