import { createHash } from 'node:crypto';
import type { RateLimiter } from '../ports/rate-limits.js';
import { signInAddressBucket, signInEmailBucket } from './rate-buckets.js';

/**
 * Password sign-in throttle, shared by every page that takes a password (the OAuth sign-in today,
 * the console later). Two token buckets on the service's rate limiter port (so limits hold across
 * processes with Redis): one per e-mail, whether or not an account has it (a refusal says nothing
 * about the e-mail existing), and one per client address. Each try takes a token before the
 * password is checked; an emptied bucket locks that e-mail or address until it refills.
 */
export interface SignInLimits {
  /** Tries per e-mail per minute (burst and refill). */
  perAccount: number;
  /** Tries per client address per minute. */
  perAddress: number;
}

export type SignInAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInThrottle {
  admit(email: string, clientAddress: string): Promise<SignInAdmission>;
}

export function createSignInThrottle(limiter: RateLimiter, limits: SignInLimits): SignInThrottle {
  // The e-mail is hashed: bucket names land in Redis, and they need not hold addresses of people.
  const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
  return {
    async admit(email, clientAddress) {
      const [account, address] = await Promise.all([
        limiter.take(signInEmailBucket(emailKey(email)), limits.perAccount),
        limiter.take(signInAddressBucket(clientAddress), limits.perAddress),
      ]);
      if (account.allowed && address.allowed) return { allowed: true };
      const waitMs = Math.max(account.allowed ? 0 : account.retryAfterMs, address.allowed ? 0 : address.retryAfterMs);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

/** The message for a refused try: the same whether the e-mail belongs to an account or not. */
export function lockedMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts for this e-mail or from this network. Wait ${retryAfterSeconds} s, then try again.`;
}
