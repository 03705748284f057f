import type { ServerResponse } from 'node:http';

/**
 * Thrown instead of billing a call whose client closed the connection before the debit: nobody
 * receives the answer, so nothing is charged. It is not a fault of ours (mapErrors logs it at
 * info level, never as an internal error) and no client ever sees it.
 */
export class ClientGone extends Error {
  constructor() {
    super('The client closed the connection before the answer; the call was not billed.');
    this.name = 'ClientGone';
  }
}

/** A signal aborted when `res` closes before the whole answer was written. */
export function clientSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
