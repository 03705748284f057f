import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { KeyEnv } from '../../../domain/accounts/plans.js';
import type { Db } from '../db.js';
import { accounts, oauthClients, oauthCodes, oauthConsents, oauthRequests, oauthTokens } from '../schema.js';

/** Secrets are random 256-bit values; only their SHA-256 is stored. */
export function newSecret(prefix: string): { value: string; hash: string } {
  const value = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { value, hash: hashSecret(value) };
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Whether a value from a request may be used as a lookup key: PostgreSQL text cannot hold NUL, and
 * no id or e-mail of ours is longer than this. Anything else is simply not found (never a 500).
 */
export function storable(value: string, max = 2048): boolean {
  return value.length > 0 && value.length <= max && !value.includes('\u0000');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PendingAuthorization {
  id: string;
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scopes: string[];
  resource: string | null;
  csrfHash: string;
  expiresAt: Date;
}

export interface IssuedToken {
  kind: 'access' | 'refresh';
  clientId: string;
  accountId: string;
  scopes: string[];
  resource: string | null;
  keyEnv: KeyEnv;
  /** The authorization code the chain started from (its hash); shared by every token of one sign-in. */
  familyId: string | null;
  expiresAt: Date;
}

export interface IssuedCode {
  clientId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: string[];
  resource: string | null;
  keyEnv: KeyEnv;
  expiresAt: Date;
}

/** OAuth rows for the MCP authorization server; codes and tokens are looked up by hash only. */
export function createOAuthStore(db: Db) {
  return {
    async getClient(clientId: string): Promise<{ metadata: Record<string, unknown>; secretHash: string | null } | null> {
      if (!storable(clientId)) return null;
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
      return row ? { metadata: row.metadata as Record<string, unknown>, secretHash: row.clientSecretHash } : null;
    },
    async saveClient(clientId: string, metadata: Record<string, unknown>, secretHash: string | null): Promise<void> {
      await db.insert(oauthClients).values({ clientId, metadata, clientSecretHash: secretHash });
    },

    async savePending(p: PendingAuthorization): Promise<void> {
      await db.insert(oauthRequests).values(p);
    },
    async takePending(id: string, now: Date): Promise<PendingAuthorization | null> {
      if (!UUID.test(id)) return null;
      const [row] = await db.select().from(oauthRequests).where(and(eq(oauthRequests.id, id), gt(oauthRequests.expiresAt, now)));
      return row ?? null;
    },
    /** Counts one password try on a pending request; returns the tries so far (0 when it is gone). */
    async countAttempt(id: string): Promise<number> {
      const rows = await db.update(oauthRequests).set({ attempts: sql`${oauthRequests.attempts} + 1` }).where(eq(oauthRequests.id, id)).returning({ n: oauthRequests.attempts });
      return rows[0]?.n ?? 0;
    },
    async dropPending(id: string): Promise<void> {
      await db.delete(oauthRequests).where(eq(oauthRequests.id, id));
    },

    async account(email: string): Promise<{ id: string; passwordHash: string | null; creditBalance: number } | null> {
      if (!storable(email, 320)) return null;
      const [row] = await db.select({ id: accounts.id, passwordHash: accounts.passwordHash, creditBalance: accounts.creditBalance }).from(accounts).where(eq(accounts.email, email.trim().toLowerCase()));
      return row ?? null;
    },
    async hasConsent(accountId: string, clientId: string): Promise<boolean> {
      const rows = await db.select().from(oauthConsents).where(and(eq(oauthConsents.accountId, accountId), eq(oauthConsents.clientId, clientId)));
      return rows.length > 0;
    },
    async recordConsent(accountId: string, clientId: string): Promise<void> {
      await db.insert(oauthConsents).values({ accountId, clientId }).onConflictDoNothing();
    },

    async saveCode(codeHash: string, c: IssuedCode): Promise<void> {
      await db.insert(oauthCodes).values({ codeHash, ...c });
    },
    async findCode(codeHash: string, now: Date): Promise<IssuedCode | null> {
      const [row] = await db.select().from(oauthCodes).where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt), gt(oauthCodes.expiresAt, now)));
      return row ? { ...row, keyEnv: row.keyEnv === 'sandbox' ? 'sandbox' : 'live' } : null;
    },
    /** Whether this code was issued and already spent: a replay, whose tokens must be revoked. */
    async wasUsed(codeHash: string): Promise<boolean> {
      const [row] = await db.select({ usedAt: oauthCodes.usedAt }).from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash));
      return Boolean(row?.usedAt);
    },
    /** Marks a code used; false when it was already used (a code is single-use). */
    async useCode(codeHash: string, now: Date): Promise<boolean> {
      const rows = await db.update(oauthCodes).set({ usedAt: now }).where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt))).returning({ h: oauthCodes.codeHash });
      return rows.length > 0;
    },

    async saveToken(tokenHash: string, t: IssuedToken): Promise<void> {
      await db.insert(oauthTokens).values({ tokenHash, ...t });
    },
    async findToken(tokenHash: string, kind: 'access' | 'refresh', now: Date): Promise<IssuedToken | null> {
      const [row] = await db
        .select()
        .from(oauthTokens)
        .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, kind), isNull(oauthTokens.revokedAt), gt(oauthTokens.expiresAt, now)));
      return row ? toIssued(row) : null;
    },
    /** A refresh token that was issued and already revoked (spent by rotation, or revoked): a replay. */
    async findSpentRefresh(tokenHash: string): Promise<IssuedToken | null> {
      const [row] = await db.select().from(oauthTokens).where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, 'refresh')));
      return row?.revokedAt ? toIssued(row) : null;
    },
    /** Revokes every live token of a family (RFC 9700 4.14: refresh token or code reuse). */
    async revokeFamily(familyId: string, now: Date): Promise<number> {
      const rows = await db.update(oauthTokens).set({ revokedAt: now }).where(and(eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt))).returning({ h: oauthTokens.tokenHash });
      return rows.length;
    },
    /** Revokes a token; false when it was already revoked (a rotated refresh token is single-use). */
    async revokeToken(tokenHash: string, now: Date): Promise<boolean> {
      const rows = await db.update(oauthTokens).set({ revokedAt: now }).where(and(eq(oauthTokens.tokenHash, tokenHash), isNull(oauthTokens.revokedAt))).returning({ h: oauthTokens.tokenHash });
      return rows.length > 0;
    },
  };
}
export type OAuthStore = ReturnType<typeof createOAuthStore>;

function toIssued(row: typeof oauthTokens.$inferSelect): IssuedToken {
  return {
    kind: row.kind === 'refresh' ? 'refresh' : 'access',
    clientId: row.clientId,
    accountId: row.accountId,
    scopes: row.scopes,
    resource: row.resource,
    keyEnv: row.keyEnv === 'sandbox' ? 'sandbox' : 'live',
    familyId: row.familyId,
    expiresAt: row.expiresAt,
  };
}
