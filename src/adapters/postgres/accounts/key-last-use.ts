import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Clock } from '../../../domain/ports/system.js';
import type { KeyUse } from '../../../domain/ports/accounts.js';
import type { Db } from '../db.js';
import { apiKeys } from '../schema.js';

const EVERY_MS = 60_000;
/** Past this many remembered keys, the ones not written within the minute are forgotten. */
const REMEMBERED = 10_000;

/**
 * A key's last use, for the console's key list. Approximate by design: each process writes a
 * key's `last_used_at` at most once a minute, without waiting, and a failed write is only logged:
 * recording the use may never delay or fail the request that used the key.
 */
export function createKeyLastUse(db: Db, clock: Clock, log: Logger): KeyUse {
  const written = new Map<string, number>();
  return {
    touch(keyId) {
      const now = clock.now();
      const last = written.get(keyId);
      if (last !== undefined && now.getTime() - last < EVERY_MS) return;
      if (written.size >= REMEMBERED) {
        for (const [id, at] of written) if (now.getTime() - at >= EVERY_MS) written.delete(id);
        // Still full (that many keys used within a minute): start over. At worst each key is written
        // once more this minute; the map never grows past the bound.
        if (written.size >= REMEMBERED) written.clear();
      }
      written.set(keyId, now.getTime());
      db.update(apiKeys)
        .set({ lastUsedAt: now })
        .where(eq(apiKeys.id, keyId))
        .then(
          () => undefined,
          (err: unknown) => log.warn({ keyId, err: err instanceof Error ? err.message : String(err) }, 'could not record a key\'s last use'),
        );
    },
  };
}
