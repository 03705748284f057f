/**
 * Group commit: calls made while earlier ones are in flight wait and then go together, as one
 * call of `run` with all of them (at most `maxBatch`), with at most `maxInFlight` batches at
 * once. A lone call goes at once (after the current turn of the event loop), so it waits for
 * nothing; a burst becomes a few round trips instead of one per call. `run` answers one output
 * per input, in order, or a `Failed` for an input that failed alone; when it throws, every call
 * of that batch gets the error.
 */
export class Failed {
  constructor(readonly error: unknown) {}
}

export function batcher<I, O>(run: (inputs: I[]) => Promise<(O | Failed)[]>, maxBatch: number, maxInFlight: number): (input: I) => Promise<O> {
  const waiting: { input: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  let inFlight = 0;
  let scheduled = false;

  const send = (batch: typeof waiting) => {
    inFlight++;
    run(batch.map((w) => w.input))
      .then(
        (outs) =>
          batch.forEach((w, i) => {
            const out = i < outs.length ? outs[i]! : new Failed(new Error('batch answered fewer outputs than inputs'));
            if (out instanceof Failed) w.reject(out.error);
            else w.resolve(out);
          }),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        inFlight--;
        pump();
      });
  };
  const pump = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) send(waiting.splice(0, maxBatch));
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        // Calls arriving in the same turn (a burst parsed from one read) join this batch.
        setImmediate(pump);
      }
    });
}
