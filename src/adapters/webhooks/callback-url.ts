import type { SubCode } from '../../domain/error-catalogue.js';
import { isIP } from 'node:net';
import { ServiceError } from '../../domain/errors.js';
import { classifyAddress } from '../../domain/webhooks/webhook-address.js';

/** Resolves a host name to every address it has (injected, so tests can play DNS rebinding). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface CallbackPolicy {
  /** Test-only: a receiver on a loopback address, over http too. Refused when NODE_ENV=production. */
  allowLoopback: boolean;
  resolve: ResolveHost;
}

export interface CheckedCallback {
  url: URL;
  /** The addresses checked; a delivery connects to the first one and to nothing else. */
  addresses: string[];
}

const MAX_URL_LENGTH = 2048;
/** A resolver that has not answered by then counts as no answer (the call is not held longer). */
const RESOLVE_TIMEOUT_MS = 3_000;

function resolveWithin(resolve: ResolveHost, host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((done) => {
    timer = setTimeout(() => done([]), RESOLVE_TIMEOUT_MS);
  });
  return Promise.race([resolve(host).catch(() => []), timeout]).finally(() => clearTimeout(timer));
}

function refuse(message: string, subCode: SubCode = 'callback_url_not_allowed'): ServiceError {
  return new ServiceError('invalid_request', `callbackUrl: ${message}`, { param: 'callbackUrl', subCode });
}

/**
 * A callback URL must be https on a public address. The host is resolved and EVERY address it
 * has must be public (no loopback, private, link-local, metadata or reserved address); this runs
 * when the URL is registered and again before every delivery, which then connects only to an
 * address checked here (a host re-pointed after registration, DNS rebinding, is caught).
 */
export async function checkCallbackUrl(raw: unknown, policy: CallbackPolicy): Promise<CheckedCallback> {
  if (typeof raw !== 'string' || raw.length === 0) throw refuse('must be one absolute https URL.', 'invalid_callback_url');
  if (raw.length > MAX_URL_LENGTH) throw refuse(`must be at most ${MAX_URL_LENGTH} characters.`, 'invalid_callback_url');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not an absolute URL.', 'invalid_callback_url');
  }
  if (url.protocol !== 'https:' && !(policy.allowLoopback && url.protocol === 'http:')) throw refuse('must use https.');
  if (url.username || url.password) throw refuse('must not carry credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    addresses = await resolveWithin(policy.resolve, host.replace(/\.$/, ''));
    if (addresses.length === 0) throw refuse(`the host ${host} does not resolve.`, 'callback_url_unresolvable');
  }
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (verdict === 'public' && url.protocol === 'https:') continue;
    if (verdict === 'loopback' && policy.allowLoopback) continue;
    throw refuse('must point to a public address (not loopback, private, link-local or metadata).');
  }
  return { url, addresses };
}
