import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { CREDIT_SCHEDULES } from './domain/billing/pricing.js';

/** The only reader of process.env (conventions rule 17). A bad setting stops start-up, naming it. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  MCP_ALLOWED_ORIGINS: z.string().optional(),
  SIGN_IN_PER_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  SIGN_IN_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  CONSOLE_PER_SESSION_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  CONSOLE_PER_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_DIRECT_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  REDIS_CLUSTER_NODES: z.string().optional(),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(250),
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  CURSOR_SECRET: z.string().min(16).optional(),
  CREDIT_SCHEDULE: z.enum(CREDIT_SCHEDULES).default('reference'),
  LEG_DEADLINE_MS: z.coerce.number().int().min(100).max(120_000).default(25_000),
  // Credit hold heartbeat: five beats per window by default, so a process must miss four in a row
  // (its event loop or its database connection stalled for 8 s) before its holds count as a dead
  // process's; a dead process's holds are released within 12 s, inside the 15 s promised.
  HOLD_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  HOLD_STALE_MS: z.coerce.number().int().min(500).max(600_000).default(10_000),
  ASYNC_THRESHOLD_MS: z.coerce.number().int().min(0).default(8_000),
  MCP_PROGRESS_WAIT_SECONDS: z.coerce.number().int().min(0).max(300).default(25),
  RUN_WORKER: z.enum(['true', 'false']).default('true'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WORKER_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(100).default(5_000),
  WORKER_STALE_MS: z.coerce.number().int().min(500).default(30_000),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(25).default(3),
  JOB_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(500).optional(),
  LIVE_PLATFORMS: z.string().default('airbnb,booking,vrbo,google'),
  AIRBNB_BASE_URL: z.string().url().default('https://www.airbnb.com'),
  AIRBNB_API_KEY: z.string().optional(),
  BOOKING_BASE_URL: z.string().url().default('https://www.booking.com'),
  VRBO_BASE_URL: z.string().url().default('https://www.vrbo.com'),
  GOOGLE_BASE_URL: z.string().url().default('https://serpapi.com'),
  GOOGLE_API_KEY: z.string().min(1).optional(),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  UPSTREAM_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  UPSTREAM_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  UPSTREAM_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(6),
  BREAKER_FAILURE_RATE: z.coerce.number().gt(0).lt(1).default(0.5),
  BREAKER_WINDOW_MS: z.coerce.number().int().min(1_000).default(10_000),
  BREAKER_MIN_CALLS: z.coerce.number().int().min(1).default(10),
  BREAKER_MIN_ACCOUNTS: z.coerce.number().int().min(1).default(2),
  BREAKER_HALF_OPEN_MS: z.coerce.number().int().min(100).default(10_000),
  ANONYMOUS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
  WEBHOOK_ALLOW_LOOPBACK: z.enum(['true', 'false']).default('false'),
  TRUSTED_PROXIES: z.string().default(''),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
});

/** Every variable the service reads; `.env.example` lists each (a test holds it). */
export const CONFIG_VARIABLES = Object.keys(Env.shape);

export interface LiveConfig {
  platforms: string[];
  baseUrls: { airbnb: string; booking: string; vrbo: string; google: string };
  airbnbApiKey: string | null;
  googleApiKey: string | null;
  timeoutMs: number;
  retries: number;
  /** Legs in flight to one platform at most (its connections); more wait, accounts served round-robin. */
  concurrency: number;
  /** Legs in flight to one platform for one account at most, so others always find a slot soon. */
  accountConcurrency: number;
}

export interface Config {
  port: number;
  host: string;
  /**
   * The public origin of the API, the OAuth issuer and the MCP resource. Unset, it is the address
   * the service listens on (see `atListeningPort`), so OAuth works at the printed address.
   */
  publicUrl: string;
  /** Whether PUBLIC_URL was set; when not, publicUrl follows the port actually bound. */
  publicUrlFromEnv: boolean;
  /** Origins a browser may call /mcp from (besides the public origin and loopback). */
  mcpAllowedOrigins: string[];
  /** Password sign-in tries per e-mail and per client address per minute (the throttle's buckets). */
  signIn: { perAccount: number; perAddress: number };
  /** Console procedure calls per session and per account per minute (issue 23: its reads are heavy). */
  consoleLimits: { perSession: number; perAccount: number };
  databaseUrl: string | null;
  /**
   * Set when DATABASE_URL is a pooler in transaction mode (pgbouncer): what needs a session
   * (migrations' lock, LISTEN, the job runner) connects here, straight to PostgreSQL.
   */
  databaseDirectUrl: string | null;
  redisUrl: string | null;
  /** Seed nodes of a Redis Cluster (REDIS_CLUSTER_NODES); the client discovers the rest. Exclusive with redisUrl. */
  redisClusterNodes: { host: string; port: number }[] | null;
  /** How long a Redis command may take before the cache and limiter fall back (REDIS_COMMAND_TIMEOUT_MS). */
  redisCommandTimeoutMs: number;
  dataDir: string;
  embeddedPgPort: number;
  cursorSecret: string;
  creditSchedule: (typeof CREDIT_SCHEDULES)[number];
  legDeadlineMs: number;
  /** Calls projected to take longer answer 202 with a job (spec 4.9). */
  asyncThresholdMs: number;
  /** MCP calls sent with a progressToken wait this long inline for a job before answering its handle (issue 16). */
  mcpProgressWaitSeconds: number;
  /** Whether the API process also runs the job worker (`npm run worker` runs it alone). */
  runWorker: boolean;
  worker: { concurrency: number; pollIntervalMs: number; heartbeatMs: number; staleAfterMs: number; maxAttempts: number };
  /**
   * How long a running Idempotency-Key claim holds its key: past it, a retry takes the key over
   * (its process is presumed dead). Default max(2 min, 2 x legDeadlineMs + 10 s).
   */
  idempotencyLeaseMs: number;
  /**
   * Credit holds live with the process that took them (issue 35): it beats every `heartbeatMs`,
   * and its live calls' holds are released once it has missed beats for `staleAfterMs`. The
   * window is several beats wide so that a living process whose event loop or database
   * connection stalls for a few seconds keeps its holds; a dead one's free up within about
   * `staleAfterMs + heartbeatMs`. Tests pass a shorter pair.
   */
  creditHolds: { heartbeatMs: number; staleAfterMs: number };
  /** Jobs of one account running at once at most, across every worker (issue 23: fair job queue). */
  jobAccountConcurrency: number;
  /** Live platforms and how to reach them; a platform is live when listed (google also needs its key). */
  live: LiveConfig;
  /**
   * A live platform's circuit breaker opens when, over the last `breakerWindowMs`, at least
   * `breakerMinCalls` legs ran, at least `breakerFailureRate` of them met a platform fault, and
   * those faults came from at least `breakerMinAccounts` accounts; it stays open
   * `breakerHalfOpenMs`, then lets one probe through.
   */
  breakerFailureRate: number;
  breakerWindowMs: number;
  breakerMinCalls: number;
  breakerMinAccounts: number;
  breakerHalfOpenMs: number;
  /** Bucket per client address for calls without a valid key, so key guessing is slow. */
  anonymousPerMinute: number;
  /**
   * Where Prometheus reads `/metrics`: a listener of its own on 127.0.0.1 (`port`), and/or the
   * public listener behind a bearer token. With neither, metrics are not served.
   */
  metrics: { port: number | null; token: string | null };
  logLevel: string;
  production: boolean;
  /** Job webhooks (issue 17): delivery limits and the retry schedule (about 24 h in all). */
  webhooks: WebhookConfig;
  /**
   * Addresses or CIDR ranges of the reverse proxies whose X-Forwarded-For is believed; empty
   * means the socket's peer is the client (a header anyone can send must not pick a bucket).
   */
  trustedProxies: string[];
  /** How long requests in flight may run on after a stop signal before their connections are cut. */
  shutdownGraceMs: number;
  /**
   * Started by an npm script (`npm start`): npm's death then means nobody can stop us any more.
   * Not otherwise: a shell script may start `node dist/app/main.js &` and exit on purpose.
   */
  launchedByNpm: boolean;
}

export interface WebhookConfig {
  /** Test-only: lets a callback reach a receiver on a loopback address (over http too). */
  allowLoopback: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Delay before each retry; an attempt past the last entry marks the webhook failed. */
  retryScheduleMs: number[];
}

/** 10 attempts: at once, then after 10 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h (23.6 h in all). */
const WEBHOOK_RETRY_SCHEDULE_MS = [10, 60, 300, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800].map((s) => s * 1000);

/** A fixed development secret keeps sandbox cursors byte-identical across restarts; production must set its own. */
const DEV_CURSOR_SECRET = 'development-cursor-secret-not-for-production';

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid setting ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  if (production && !e.CURSOR_SECRET) throw new Error('Invalid setting CURSOR_SECRET: required when NODE_ENV=production');
  // A window of fewer beats would take a living process that missed one or two for a dead one.
  if (e.HOLD_STALE_MS < 3 * e.HOLD_HEARTBEAT_MS) throw new Error('Invalid setting HOLD_STALE_MS: must be at least 3 x HOLD_HEARTBEAT_MS');
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL) throw new Error('Invalid setting DATABASE_DIRECT_URL: only with DATABASE_URL (the pooled URL it complements)');
  if (production && e.WEBHOOK_ALLOW_LOOPBACK === 'true') throw new Error('Invalid setting WEBHOOK_ALLOW_LOOPBACK: refused when NODE_ENV=production');
  if (e.REDIS_URL && e.REDIS_CLUSTER_NODES) throw new Error('Invalid setting REDIS_CLUSTER_NODES: set REDIS_URL (one node) or REDIS_CLUSTER_NODES (a cluster), not both');
  if (e.PUBLIC_URL) {
    const url = new URL(e.PUBLIC_URL);
    // OAuth issuers must be https (RFC 8414); only a local address may use http.
    if (url.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
      throw new Error('Invalid setting PUBLIC_URL: must be https (http only for localhost)');
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? localOrigin(e.HOST, e.PORT)).replace(/\/$/, ''),
    publicUrlFromEnv: e.PUBLIC_URL !== undefined,
    signIn: { perAccount: e.SIGN_IN_PER_ACCOUNT_PER_MINUTE, perAddress: e.SIGN_IN_PER_ADDRESS_PER_MINUTE },
    consoleLimits: { perSession: e.CONSOLE_PER_SESSION_PER_MINUTE, perAccount: e.CONSOLE_PER_ACCOUNT_PER_MINUTE },
    mcpAllowedOrigins: (e.MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean),
    databaseUrl: e.DATABASE_URL ?? null,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    redisClusterNodes: e.REDIS_CLUSTER_NODES === undefined ? null : parseClusterNodes(e.REDIS_CLUSTER_NODES),
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    dataDir: e.DATA_DIR,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    cursorSecret: e.CURSOR_SECRET ?? DEV_CURSOR_SECRET,
    creditSchedule: e.CREDIT_SCHEDULE,
    legDeadlineMs: e.LEG_DEADLINE_MS,
    anonymousPerMinute: e.ANONYMOUS_RATE_LIMIT_PER_MINUTE,
    asyncThresholdMs: e.ASYNC_THRESHOLD_MS,
    mcpProgressWaitSeconds: e.MCP_PROGRESS_WAIT_SECONDS,
    runWorker: e.RUN_WORKER === 'true',
    worker: { concurrency: e.WORKER_CONCURRENCY, pollIntervalMs: e.WORKER_POLL_MS, heartbeatMs: e.WORKER_HEARTBEAT_MS, staleAfterMs: e.WORKER_STALE_MS, maxAttempts: e.JOB_MAX_ATTEMPTS },
    jobAccountConcurrency: e.JOB_ACCOUNT_CONCURRENCY,
    idempotencyLeaseMs: e.IDEMPOTENCY_LEASE_MS ?? Math.max(120_000, 2 * e.LEG_DEADLINE_MS + 10_000),
    creditHolds: { heartbeatMs: e.HOLD_HEARTBEAT_MS, staleAfterMs: e.HOLD_STALE_MS },
    live: {
      platforms: e.LIVE_PLATFORMS.split(',').map((p) => p.trim()).filter(Boolean),
      baseUrls: { airbnb: e.AIRBNB_BASE_URL, booking: e.BOOKING_BASE_URL, vrbo: e.VRBO_BASE_URL, google: e.GOOGLE_BASE_URL },
      airbnbApiKey: e.AIRBNB_API_KEY ?? null,
      googleApiKey: e.GOOGLE_API_KEY ?? null,
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      retries: e.UPSTREAM_RETRIES,
      concurrency: e.UPSTREAM_CONCURRENCY,
      accountConcurrency: Math.min(e.UPSTREAM_ACCOUNT_CONCURRENCY, e.UPSTREAM_CONCURRENCY),
    },
    breakerFailureRate: e.BREAKER_FAILURE_RATE,
    breakerWindowMs: e.BREAKER_WINDOW_MS,
    breakerMinCalls: e.BREAKER_MIN_CALLS,
    breakerMinAccounts: e.BREAKER_MIN_ACCOUNTS,
    breakerHalfOpenMs: e.BREAKER_HALF_OPEN_MS,
    metrics: { port: e.METRICS_PORT ?? null, token: e.METRICS_TOKEN ?? null },
    logLevel: e.LOG_LEVEL,
    production,
    webhooks: { allowLoopback: e.WEBHOOK_ALLOW_LOOPBACK === 'true', timeoutMs: 5_000, maxResponseBytes: 1_024, retryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS },
    trustedProxies: parseProxyList(e.TRUSTED_PROXIES),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    launchedByNpm: env.npm_lifecycle_event !== undefined,
  };
}

/** `host:port,host:port,...` (an IPv6 host in brackets: `[::1]:7000`). */
function parseClusterNodes(value: string): { host: string; port: number }[] {
  const entries = value.split(',').map((n) => n.trim()).filter(Boolean);
  if (entries.length === 0) throw new Error('Invalid setting REDIS_CLUSTER_NODES: name at least one node as host:port');
  return entries.map((entry) => {
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s\[\]]+)):(\d{1,5})$/.exec(entry);
    const port = Number(m?.[3]);
    if (!m || port < 1 || port > 65535) throw new Error(`Invalid setting REDIS_CLUSTER_NODES: "${entry}" is not host:port`);
    return { host: (m[1] ?? m[2])!, port };
  });
}

function parseProxyList(value: string): string[] {
  const entries = value.split(',').map((p) => p.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))) {
      throw new Error(`Invalid setting TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
  }
  return entries;
}

/**
 * Reads `.env` into the environment when the file exists (Node's own parser); variables already
 * set in the environment win, so a deployment's settings are never overridden by a stray file.
 */
export function loadEnvFile(file = '.env'): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/** The address a local client reaches the listener at: a wildcard bind is reached through localhost. */
export function localOrigin(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/** The config once the listener is bound (PORT=0 picks a port): the default public URL follows it. */
export function atListeningPort(config: Config, port: number): Config {
  return { ...config, port, publicUrl: config.publicUrlFromEnv ? config.publicUrl : localOrigin(config.host, port) };
}

/** The URL for what needs a session of its own: DATABASE_DIRECT_URL when set, else `databaseUrl`. */
export const sessionDatabaseUrl = (config: Pick<Config, 'databaseDirectUrl'>, databaseUrl: string): string => config.databaseDirectUrl ?? databaseUrl;

/** A Config for tests: every field explicit, no environment read. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), ...overrides };
}
