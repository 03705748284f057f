export type WebhookStatus = 'waiting' | 'pending' | 'retrying' | 'delivered' | 'failed';

/** What GET /v1/jobs/{id} shows of a job's callback. */
export interface WebhookView {
  status: WebhookStatus;
  attempts: number;
  lastError: string | null;
}

export interface WebhookRecord extends WebhookView {
  id: number;
  jobId: string;
  accountId: string;
  url: string;
}

/** Job webhooks and the per-account signing secrets. */
export interface WebhookStore {
  /** Attaches a callback to a job; queued at once when the job has already ended. */
  register(jobId: string, accountId: string, url: string): Promise<void>;
  viewOf(jobId: string): Promise<WebhookView | null>;
  find(id: number): Promise<WebhookRecord | null>;
  /** Records an attempt; with `retryAt` the next attempt is queued in the same transaction. */
  recordAttempt(id: number, attempt: { status: WebhookStatus; attempts: number; lastError: string | null; now: Date; retryAt: Date | null }): Promise<void>;
  /** The account's secret, created on first use. */
  secretOf(accountId: string): Promise<string>;
  /** Secrets to sign with now: the current one, and the previous one for a day after a rotation. */
  signingSecrets(accountId: string, now: Date): Promise<string[]>;
  /** A new secret; the old one keeps signing (beside it) for 24 h. */
  rotate(accountId: string, now: Date): Promise<{ secret: string; previousSignsUntil: Date | null }>;
}

/** Where job webhooks may go, and the delivery itself (the one URL the service fetches). */
export interface CallbackTargets {
  /** Checks a callbackUrl when it is given (a 400 naming it when refused); returns it normalised. */
  check(raw: unknown): Promise<string>;
  /** One signed POST, to an address checked again just before it. */
  deliver(url: string, body: string, headers: Record<string, string>): Promise<{ ok: boolean; status: number | null; error: string | null }>;
}
