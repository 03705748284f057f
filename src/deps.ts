import { DEPRECATIONS, type Deprecation } from './domain/lifecycle/deprecations.js';
import { pino, type Logger } from 'pino';
import { sessionDatabaseUrl, type Config } from './config.js';
import type { AdapterSet } from './domain/ports/platform.js';
import type { Clock } from './domain/ports/system.js';
import type { Cache } from './domain/ports/caching.js';
import type { IdGenerator } from './domain/ports/system.js';
import type { JobStore } from './domain/ports/jobs.js';
import type { KeyStore, KeyUse } from './domain/ports/accounts.js';
import type { Ledger } from './domain/ports/billing.js';
import type { SandboxCallCounter } from './domain/ports/console.js';
import type { RateLimiter } from './domain/ports/rate-limits.js';
import type { KeyEnv } from './domain/accounts/plans.js';
import { createMemoryCache } from './adapters/memory/cache.js';
import { createMemoryRateLimiter } from './adapters/memory/rate-limiter.js';
import { createSandboxAdapters } from './adapters/platforms/sandbox/adapter.js';
import { createLiveAdapters } from './adapters/platforms/registry.js';
import { createPlatformBreakers, type PlatformBreakers } from './adapters/platforms/circuit-breakers.js';
import { createPlatformShares, type PlatformShares } from './adapters/platforms/fair-share.js';
import { connect, type Database, type Db } from './adapters/postgres/db.js';
import { createPgKeyStore } from './adapters/postgres/accounts/key-store.js';
import { cachedKeyStore } from './adapters/memory/key-cache.js';
import { createPgLedger } from './adapters/postgres/billing/ledger.js';
import { startHoldOwner, type HoldOwner } from './adapters/postgres/billing/hold-owner.js';
import { createAdmin, type Admin } from './adapters/postgres/accounts/admin.js';
import { createAdminQueries, type AdminQueries } from './adapters/postgres/accounts/admin-queries.js';
import { createOAuthStore, type OAuthStore } from './adapters/postgres/oauth/oauth-store.js';
import { createConsoleStore, type ConsoleStore } from './adapters/postgres/console/console-store.js';
import { createSandboxCallCounter } from './adapters/postgres/console/sandbox-calls.js';
import { systemClock } from './adapters/system/clock.js';
import { createMetrics, type Metrics } from './adapters/system/metrics.js';
import { createLatencyTracker, type LatencyTracker } from './adapters/system/latency.js';
import { createPgJobStore } from './adapters/postgres/jobs/job-store.js';
import { createIds } from './adapters/system/ids.js';
import { createRedisCache } from './adapters/redis/cache.js';
import type { RedisClient } from './adapters/redis/client.js';
import { createRedisRateLimiter } from './adapters/redis/rate-limiter.js';
import type { CallbackTargets, WebhookStore } from './domain/ports/webhooks.js';
import type { IdempotencyStore } from './domain/ports/retries.js';
import type { JobEvents } from './domain/ports/jobs.js';
import { createPgWebhookStore } from './adapters/postgres/webhooks/webhook-store.js';
import { systemResolver } from './adapters/webhooks/resolver.js';
import type { ResolveHost } from './adapters/webhooks/callback-url.js';
import { createCallbackTargets } from './adapters/webhooks/targets.js';
import { createPgIdempotencyStore } from './adapters/postgres/retries/idempotency-store.js';
import { createPgJobEvents } from './adapters/postgres/jobs/job-events.js';
import { createClientMetadataFetcher, type ClientMetadataFetcher } from './adapters/system/client-metadata.js';
import { createParsedMemo, type ParsedMemo } from './domain/caching/parsed-memo.js';
import { createPageMemo, type PageMemo } from './domain/caching/page-memo.js';
import { createOutageLog } from './adapters/system/outage-log.js';
import { createKeyLastUse } from './adapters/postgres/accounts/key-last-use.js';

/** Everything a request may touch, built once by the composition root (conventions rule 5). */
export interface Deps {
  config: Config;
  /** The drizzle handle, for tests' own queries; the service reaches the database only through the stores below, all built here. */
  db: Db;
  log: Logger;
  metrics: Metrics;
  latency: LatencyTracker;
  jobs: JobStore;
  clock: Clock;
  ids: IdGenerator;
  keys: KeyStore;
  /** A key's last use, written at most once a minute per key by this process. */
  keyUse: KeyUse;
  ledger: Ledger;
  /** This process's heartbeat as the owner of its calls' credit holds (issue 35); null in the admin CLI. */
  holdOwner: HoldOwner | null;
  admin: Admin;
  /** The admin CLI's reads (accounts, keys, usage). */
  adminQueries: AdminQueries;
  /** The MCP authorization server's clients, codes and tokens. */
  oauth: OAuthStore;
  /** The developer console's sessions and usage figures. */
  console: ConsoleStore;
  /** Sandbox calls per account and day for the console, counted in memory and written in batches. */
  sandboxCalls: SandboxCallCounter;
  cache: Cache;
  /** Parsed values of recent cache hits (fan-out.ts), so a hot cached call does not re-parse its legs. */
  parsedMemo: ParsedMemo;
  /** Finished pages of fully cached searches (page-memo.ts), with their data serialized once. */
  pageMemo: PageMemo;
  limiter: RateLimiter;
  platforms: Record<KeyEnv, AdapterSet>;
  /** One circuit breaker per live platform, shared by every account of this process. */
  breakers: PlatformBreakers;
  /** Each account's fair share of each live platform's connections (issue 23), per process. */
  upstreamShares: PlatformShares;
  /** REST Idempotency-Key answers, and the job-end events long polls wait on (issue 17). */
  idempotency: IdempotencyStore;
  jobEvents: JobEvents;
  /** Job webhooks and signing secrets; where callbacks may go, and their delivery. */
  webhooks: WebhookStore;
  callbacks: CallbackTargets;
  /** Client ID Metadata Documents of OAuth clients that use a URL as client_id (fetched under SSRF rules, cached). */
  clientMetadata: ClientMetadataFetcher;
  /** What is deprecated and when it sunsets (domain/lifecycle): the shipped table; tests pass their own. */
  deprecations: readonly Deprecation[];
  /** True when the stores answer (readiness). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DepsOverrides {
  clock?: Clock;
  platforms?: Partial<Record<KeyEnv, AdapterSet>>;
  cache?: Cache;
  limiter?: RateLimiter;
  log?: Logger;
  clientMetadata?: ClientMetadataFetcher;
  /** A connected Redis node or Redis Cluster: cache and rate limits are then shared by every process. */
  redis?: RedisClient;
  /** DNS for callback URLs (tests play a host that changes its address). */
  resolveHost?: ResolveHost;
  /** A deprecation table in place of the shipped one (tests exercise the machinery on their own entries). */
  deprecations?: readonly Deprecation[];
  /** False for a process that serves no calls (the admin CLI): it takes no credit holds, so it beats no heartbeat. */
  creditHolds?: boolean;
}

/** Wires the real adapters for a database URL; tests pass overrides instead of mocking modules. */
export function createDeps(config: Config, databaseUrl: string, overrides: DepsOverrides = {}): Deps {
  const log = overrides.log ?? pino({ level: config.logLevel });
  // DATABASE_DIRECT_URL set: databaseUrl is a pooler in transaction mode (no session state there).
  const pooled = config.databaseDirectUrl !== null;
  const database: Database = connect(databaseUrl, 10, (err) => log.warn({ err: String(err) }, 'database connection lost; the pool replaces it'), pooled);
  const consoleDatabase: Database = connect(databaseUrl, 2, (err) => log.warn({ err: String(err) }, 'console database connection lost; the pool replaces it'), pooled);
  const clock = overrides.clock ?? systemClock;
  const ids = createIds();
  // Beats on a connection of its own, straight to PostgreSQL (not queued behind billed calls in a
  // pooler), so a burst never delays it into a missed beat; a beat that hangs (a half-open
  // connection) fails after half the window and the pool replaces the connection.
  const holdsDatabase: Database | null =
    overrides.creditHolds === false
      ? null
      : connect(sessionDatabaseUrl(config, databaseUrl), 1, (err) => log.warn({ err: String(err) }, 'credit hold heartbeat connection lost; the pool replaces it'), false, {
          query_timeout: Math.round(config.creditHolds.staleAfterMs / 2),
          keepAlive: true,
        });
  const holdOwner = holdsDatabase ? startHoldOwner(holdsDatabase.db, ids.processId(), config.creditHolds, log) : null;
  const ledger = createPgLedger(database.db, () => holdOwner?.holdId() ?? null);
  const { redis } = overrides;
  const memoryLimiter = createMemoryRateLimiter(clock);
  const live = overrides.platforms?.live ? null : createLiveAdapters(config.live, clock);
  const keys = cachedKeyStore(createPgKeyStore(database.db), clock);
  const admin = createAdmin(database.db, ledger, ids);
  // LISTEN needs a session: straight to PostgreSQL; the NOTIFYs go through the pool.
  const jobEvents = createPgJobEvents(sessionDatabaseUrl(config, databaseUrl), log, database.pool);
  const revokeKey = admin.revokeKey;
  admin.revokeKey = async (keyIdOrKey) => {
    const revoked = await revokeKey(keyIdOrKey);
    keys.forget(); // this process stops accepting it at once; others within the cache's TTL
    return revoked;
  };
  const sandboxCalls = createSandboxCallCounter(database.db, log);
  const cache = overrides.cache ?? (redis ? createRedisCache(redis, createOutageLog(log, clock, 'cache (Redis)', 'every lookup is a miss')) : createMemoryCache(clock));
  return {
    config,
    deprecations: overrides.deprecations ?? DEPRECATIONS,
    db: database.db,
    log,
    metrics: createMetrics(),
    latency: createLatencyTracker(),
    jobs: createPgJobStore(database.db, config.worker.maxAttempts, config.jobAccountConcurrency),
    clock,
    ids,
    keys,
    keyUse: createKeyLastUse(database.db, clock, log),
    ledger,
    holdOwner,
    admin,
    adminQueries: createAdminQueries(database.db),
    oauth: createOAuthStore(database.db),
    // The console's reads (ledger history, usage) run on a small pool of their own, so however
    // heavy they get they never take a connection the billed path needs (issue 23).
    console: createConsoleStore(consoleDatabase.db),
    sandboxCalls,
    cache,
    parsedMemo: createParsedMemo(),
    pageMemo: createPageMemo(),
    clientMetadata: overrides.clientMetadata ?? createClientMetadataFetcher(cache),
    limiter:
      overrides.limiter ??
      (redis ? createRedisRateLimiter(redis, memoryLimiter, createOutageLog(log, clock, 'rate limiter (Redis)', 'using in-process buckets')) : memoryLimiter),
    platforms: {
      sandbox: overrides.platforms?.sandbox ?? createSandboxAdapters(),
      live: overrides.platforms?.live ?? live!,
    },
    breakers: createPlatformBreakers(
      {
        failureRate: config.breakerFailureRate,
        windowMs: config.breakerWindowMs,
        minCalls: config.breakerMinCalls,
        minAccounts: config.breakerMinAccounts,
        halfOpenAfterMs: config.breakerHalfOpenMs,
      },
      () => clock.now().getTime(),
      (platform, state, window) => {
        if (state === 'open') log.warn({ platform, ...window }, 'circuit breaker opened: the platform is failing; its legs fail at once until a probe succeeds');
        else log.info({ platform }, 'circuit breaker closed: a probe succeeded');
      },
    ),
    upstreamShares: createPlatformShares({ slots: config.live.concurrency, perAccount: config.live.accountConcurrency }),
    idempotency: createPgIdempotencyStore(database.db),
    jobEvents,
    webhooks: createPgWebhookStore(database.db),
    callbacks: createCallbackTargets(config.webhooks, overrides.resolveHost ?? systemResolver),
    async ready() {
      // Not ready while the database does not answer within two seconds (an outage or a pause).
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 2_000)));
      const probe = database.pool.query('select 1').then(() => true, () => false);
      try {
        return await Promise.race([probe, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await live?.close();
      await jobEvents.close();
      // The last counts of this process, before its pool closes (a crash loses at most one interval).
      await sandboxCalls.close().catch((err: unknown) => log.warn({ err: String(err) }, 'sandbox call counts not written at shutdown'));
      await holdOwner?.close();
      await holdsDatabase?.close();
      await database.close();
      await consoleDatabase.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
