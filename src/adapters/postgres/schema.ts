import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    passwordHash: text('password_hash'),
    plan: text('plan').notNull().default('free'),
    subscriptionStatus: text('subscription_status').notNull().default('active'),
    creditBalance: bigint('credit_balance', { mode: 'number' }).notNull().default(0),
    rateLimitOverride: integer('rate_limit_override'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('credit_balance_not_negative', sql`${t.creditBalance} >= 0`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    /** SHA-256 hex of the whole key; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** First characters of the key, to recognise it in a list or a log. */
    prefix: text('prefix').notNull(),
    env: text('env').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Approximate: written at most once a minute per key and process (key-last-use.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [check('api_keys_env', sql`${t.env} in ('live', 'sandbox')`), index('api_keys_account_idx').on(t.accountId)],
);

/** Append-only: every balance change is one row (a trigger refuses UPDATE and DELETE). */
/** Credits a live call holds while its legs run (issue 23; drizzle/0014_credit_holds.sql). */
export const creditHolds = pgTable(
  'credit_holds',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The process whose call holds it (issue 35); null for a job's hold, which lives with its job. */
    processId: text('process_id'),
  },
  (t) => [index('credit_holds_account_idx').on(t.accountId), check('credit_holds_amount_check', sql`${t.amount} > 0`)],
);

/** Processes that take credit holds, with their heartbeat (issue 35; drizzle/0018_credit_hold_owners.sql). */
export const creditHoldOwners = pgTable('credit_hold_owners', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
  beatingSince: timestamp('beating_since', { withTimezone: true }).notNull(),
});

export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    entryKey: text('entry_key').notNull().unique(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set on billed requests and jobs (0013): the platforms asked and what each cost, in one order. */
    platforms: text('platforms').array(),
    platformCredits: integer('platform_credits').array(),
    status: text('status'),
    keyId: text('key_id'),
  },
  // The billed indexes of migration 0013 (the first also INCLUDEs amount and reason, which drizzle cannot declare).
  (t) => [
    index('credit_ledger_account_idx').on(t.accountId),
    index('credit_ledger_billed_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()).where(sql`${t.amount} < 0 and (${t.entryKey} like 'req:%' or ${t.entryKey} like 'job:%')`),
    index('credit_ledger_billed_operation_idx').on(t.accountId, t.reason, t.createdAt.desc(), t.id.desc()).where(sql`${t.amount} < 0 and (${t.entryKey} like 'req:%' or ${t.entryKey} like 'job:%')`),
    index('credit_ledger_billed_partial_idx')
      .on(t.accountId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.amount} < 0 and (${t.entryKey} like 'req:%' or ${t.entryKey} like 'job:%') and ${t.status} = 'partial'`),
  ],
);

/**
 * Async jobs (spec 4.9): one row per accepted slow call, polled for free. At most one in-flight
 * job per account and call (the partial unique index), so identical calls share a job.
 */
export const asyncJobs = pgTable(
  'async_jobs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    keyId: text('key_id').notNull(),
    keyEnv: text('key_env').notNull(),
    procedure: text('procedure').notNull(),
    input: jsonb('input').notNull(),
    dedupKey: text('dedup_key').notNull(),
    platforms: jsonb('platforms').$type<string[]>().notNull(),
    status: text('status').notNull().default('pending'),
    estimatedSeconds: integer('estimated_seconds').notNull(),
    result: jsonb('result'),
    creditsCharged: integer('credits_charged').notNull().default(0),
    error: jsonb('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('async_jobs_status', sql`${t.status} in ('pending', 'running', 'completed', 'failed')`),
    uniqueIndex('async_jobs_in_flight').on(t.accountId, t.dedupKey).where(sql`status in ('pending', 'running')`),
    index('async_jobs_expires_idx').on(t.expiresAt),
  ],
);

/** Liveness of job workers: a worker whose beat is stale has died, and its locked jobs are released. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  beatAt: timestamp('beat_at', { withTimezone: true }).notNull(),
});

/** OAuth 2.1 for the MCP tool server (spec 5.5): clients, pending sign-ins, codes and tokens, all secrets hashed. */
export const oauthClients = pgTable('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  /** The whole RFC 7591 registration, minus the secret (only its hash is kept in clientSecretHash). */
  metadata: jsonb('metadata').notNull(),
  clientSecretHash: text('client_secret_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const oauthRequests = pgTable('oauth_requests', {
  id: text('id').primaryKey(),
  clientId: text('client_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  state: text('state'),
  codeChallenge: text('code_challenge').notNull(),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  resource: text('resource'),
  csrfHash: text('csrf_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Password tries on this request; past the cap the request is dropped. */
  attempts: integer('attempts').notNull().default(0),
});

export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: text('client_id').notNull(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    resource: text('resource'),
    /** Sandbox or live, chosen on the consent page; the tokens act with this key kind. */
    keyEnv: text('key_env').notNull().default('live'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [check('oauth_codes_key_env', sql`${t.keyEnv} in ('live', 'sandbox')`)],
);

export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind').notNull(),
    clientId: text('client_id').notNull(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    resource: text('resource'),
    keyEnv: text('key_env').notNull().default('live'),
    /** The hash of the authorization code the chain of tokens started from; reuse revokes the family. */
    familyId: text('family_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('oauth_tokens_kind', sql`${t.kind} in ('access', 'refresh')`),
    check('oauth_tokens_key_env', sql`${t.keyEnv} in ('live', 'sandbox')`),
    index('oauth_tokens_account_idx').on(t.accountId),
    index('oauth_tokens_family_idx').on(t.familyId),
  ],
);

export const oauthConsents = pgTable(
  'oauth_consents',
  {
    accountId: text('account_id').notNull().references(() => accounts.id),
    clientId: text('client_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('oauth_consents_pair').on(t.accountId, t.clientId)],
);

/**
 * Idempotency-Key (REST): the first request's answer per account and key, kept 24 h. `running`
 * while the first request works; `done` once its answer is stored (with its charge, in one
 * transaction).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull().references(() => accounts.id),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: text('status').notNull().default('running'),
    requestId: text('request_id').notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: jsonb('response_body'),
    lockedAt: timestamp('locked_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.accountId, t.key] }),
    check('idempotency_keys_status', sql`${t.status} in ('running', 'done')`),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
  ],
);

/** The per-account secret job webhooks are signed with; the previous one still signs for a day after rotation. */
export const webhookSecrets = pgTable('webhook_secrets', {
  accountId: text('account_id').primaryKey().references(() => accounts.id),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  rotatedAt: timestamp('rotated_at', { withTimezone: true }).notNull(),
});

/**
 * A job's callback: `waiting` while the job runs, `pending` once queued for delivery (the
 * async_jobs_finished trigger, migration 0011), then `retrying`, `delivered` or `failed`.
 */
export const jobWebhooks = pgTable(
  'job_webhooks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    jobId: text('job_id').notNull().references(() => asyncJobs.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    url: text('url').notNull(),
    status: text('status').notNull().default('waiting'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('job_webhooks_status', sql`${t.status} in ('waiting', 'pending', 'retrying', 'delivered', 'failed')`),
    uniqueIndex('job_webhooks_job_url').on(t.jobId, t.url),
  ],
);

/** Signed-in developer console sessions (migration 0012): the cookie's SHA-256 and its CSRF token. */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id),
    csrf: text('csrf').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('console_sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Sandbox calls that delivered an answer, per account and UTC day (issue 22; drizzle/0015):
 * counted in memory and added in batches (console/sandbox-calls.ts), never billed.
 */
export const sandboxCalls = pgTable(
  'sandbox_calls',
  {
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] }), check('sandbox_calls_calls_check', sql`${t.calls} >= 0`)],
);
