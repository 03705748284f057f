import { asOperatorError } from '../domain/errors.js';

/**
 * How an operator command ends (admin CLI, migrate): one JSON object, the result on stdout with
 * exit 0, or `{ "error": { code, message, hint? } }` on stderr with the error's exit code.
 */
export function finishCommand(work: Promise<unknown>): void {
  work.then(
    (out) => {
      process.stdout.write(`${JSON.stringify(out)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      const failure = asOperatorError(err);
      process.stderr.write(`${JSON.stringify(failure)}\n`);
      process.exit(failure.exitCode);
    },
  );
}
