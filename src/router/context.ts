import type { GoneFlag } from './client-gone.js';
import type { Deps } from '../deps.js';
import type { SettledLeg } from '../domain/operations/fan-out.js';
import type { Principal } from '../domain/ports/accounts.js';
import type { ServiceError } from '../domain/errors.js';
import type { IdempotencyClaim, RetryRequest } from './retries/retry.js';
import type { ConsoleCall } from './console/trpc.js';
import type { Warning } from '../domain/model/common.js';

/**
 * How a call arrived; `worker` is a job being run by the job worker on behalf of its owner,
 * `console` a sandbox call from the signed-in developer console.
 */
export type Transport = 'rest' | 'trpc' | 'mcp' | 'worker' | 'console';

/** Status and headers a procedure wants on the response; the REST face writes them (conventions rule 9). */
export interface ResponseBag {
  status?: number;
  headers: Record<string, string>;
  /** For the request log: the caller's key prefix (never the key) and what the call cost. */
  keyPrefix?: string;
  creditsCharged?: number;
  /**
   * What the charge was for (operation, platforms and their credits, outcome), set by settle():
   * a job's worker posts its charge from this, not from the stored answer, which `view` or
   * `fields` may have shaped.
   */
  billed?: { operation: string; platforms: { platform: string; credits: number }[]; status: 'complete' | 'partial' };
  /** The credits this call holds against the balance while its legs run (issue 23, credit-hold.ts). */
  hold?: { id: string; credits: number } | undefined;
  /** The call's largest possible cost, once its 402 check passed: what a job made of it holds. */
  worstCredits?: number;
}

/**
 * The per-request context. Building it never throws (stack-notes 1: responseMeta gets no ctx
 * otherwise); authentication and everything that can fail happen in middleware.
 */
export interface Context {
  deps: Deps;
  transport: Transport;
  requestId: string;
  /** The raw Authorization header, or null. */
  authorization: string | null;
  clientAddress: string;
  res: ResponseBag;
  /** Set by the auth middleware. */
  principal?: Principal;
  /** REST input the face could not read (a body, a path segment); reported after auth and rate limit, like any bad input. */
  inputError?: ServiceError;
  /** Set when the job worker runs a call: its charge is settled with the job's result. */
  jobId?: string;
  /** REST only: Idempotency-Key, Prefer: wait and callbackUrl as sent (issue 17). */
  retry?: RetryRequest;
  /** Set once this request holds its Idempotency-Key. */
  idempotency?: IdempotencyClaim;
  /** Query parameters the operation does not read, as sent: tolerated, but reported as a warning. */
  unknownParams?: string[];
  /** `deprecated_usage` warnings of the deprecated items this call uses (lifecycle/apply-deprecations.ts). */
  deprecationWarnings?: Warning[];
  /** The caller's cap on what this call may cost (`maxCredits`), set from the input of billed operations. */
  maxCredits?: number;
  /** `dryRun=true`: answer the call's estimate, free, without asking any platform. */
  dryRun?: boolean;
  /** Told as each platform leg settles (MCP progress, the worker's leg events); absent: nobody listens. */
  onLeg?: (leg: SettledLeg) => void;
  /** Run as a job whatever the projection (an MCP task-augmented call, issue 16). */
  alwaysAsync?: boolean;
  /** True once the caller's connection is gone: a call nobody will receive is not billed. */
  clientGone(): boolean;
  /** Set by the console face only: the browser session its console procedures run as. */
  console?: ConsoleCall;
}

/** A context past the auth middleware: every billed or account-bound step takes this one type. */
export type Authed = Context & { principal: Principal };

export interface ContextSource {
  transport: Transport;
  /** Given when the transport already answered with an id (REST sets X-Request-Id early). */
  requestId?: string;
  inputError?: ServiceError;
  retry?: RetryRequest;
  unknownParams?: string[];
  authorization: string | null | undefined;
  clientAddress: string | undefined;
  /** Aborted when the caller's connection closes before the answer (HTTP faces). */
  signal?: GoneFlag;
}

export function createContext(deps: Deps, source: ContextSource): Context {
  const requestId = source.requestId ?? deps.ids.requestId();
  return {
    ...(source.inputError ? { inputError: source.inputError } : {}),
    ...(source.retry ? { retry: source.retry } : {}),
    ...(source.unknownParams?.length ? { unknownParams: source.unknownParams } : {}),
    deps,
    transport: source.transport,
    requestId,
    authorization: source.authorization ?? null,
    clientAddress: source.clientAddress ?? 'unknown',
    res: { headers: { 'X-Request-Id': requestId } },
    // A method: under tsx (npm start) an arrow-valued property is renamed at run time, every call.
    clientGone() {
      return source.signal?.aborted ?? false;
    },
  };
}
