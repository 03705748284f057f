import type { ServerResponse } from 'node:http';

/**
 * Thrown instead of billing a call whose client closed the connection before the debit: nobody
 * receives the answer, so nothing is charged. It is not a fault of ours (mapFailure logs it at
 * info level, never as an internal error) and no client ever sees it.
 */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection before the answer; the call was not billed.');
    this.name = 'ClientGone';
  }
}

/** Whether the caller went away; an AbortSignal is one, and so is what clientSignal returns. */
export interface GoneFlag {
  readonly aborted: boolean;
}

/**
 * A flag set when `res` closes before the whole answer was written. A plain object rather than an
 * AbortController: only `aborted` is ever read, and a controller per request showed in the
 * profile of a cached search (issue 15).
 */
export function clientSignal(res: ServerResponse): GoneFlag {
  const flag = { aborted: false };
  res.once('close', () => {
    if (!res.writableFinished) flag.aborted = true;
  });
  return flag;
}
