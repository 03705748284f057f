import { parseArgs } from 'node:util';
import { parseConfig } from './config.js';
import { openDatabase } from './database-setup.js';
import { createDeps } from './deps.js';
import { isPlanCode } from './domain/plans.js';

/**
 * Admin CLI (design.md section 2). Prints one JSON object on stdout; errors go to stderr with
 * exit code 1 (2 for usage).
 *   account create --email E [--plan P] [--credits N] [--unverified] [--password P]
 *   key create --account ID --env live|sandbox
 *   key revoke --key KEY_ID|KEY
 *   credits grant --account ID --amount N
 */
class UsageError extends Error {}

function wholeNumber(value: string | undefined, name: string, allowNegative = false): number {
  const n = Number(value);
  if (value === undefined || !Number.isSafeInteger(n) || (!allowNegative && n < 0)) throw new UsageError(`--${name} must be a whole number`);
  return n;
}

async function run(argv: string[]): Promise<unknown> {
  let parsed;
  try {
    parsed = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' }, plan: { type: 'string' }, credits: { type: 'string' }, unverified: { type: 'boolean' },
      password: { type: 'string' }, account: { type: 'string' }, env: { type: 'string' }, amount: { type: 'string' }, key: { type: 'string' },
    },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { positionals, values } = parsed;
  const command = positionals.join(' ');
  const known = ['account create', 'key create', 'key revoke', 'credits grant'];
  if (!known.includes(command)) throw new UsageError(`unknown command "${command}"; expected one of: ${known.join(', ')}`);

  const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const deps = createDeps(config, database.url);
  try {
    switch (command) {
      case 'account create': {
        if (!values.email || !/^[^@\s]+@[^@\s]+$/.test(values.email)) throw new UsageError('--email is required and must be an e-mail address');
        const plan = values.plan ?? 'free';
        if (!isPlanCode(plan)) throw new UsageError('--plan must be one of free, starter, pro, scale, enterprise');
        const credits = values.credits === undefined ? 0 : wholeNumber(values.credits, 'credits');
        return await deps.admin.createAccount({ email: values.email, plan, credits, verified: !values.unverified, password: values.password ?? null });
      }
      case 'key create': {
        if (!values.account) throw new UsageError('--account is required');
        if (values.env !== 'live' && values.env !== 'sandbox') throw new UsageError('--env must be live or sandbox');
        const { key, keyId } = await deps.admin.createKey(values.account, values.env);
        return { key, keyId };
      }
      case 'key revoke': {
        if (!values.key) throw new UsageError('--key (the key id, or the key itself) is required');
        return { revoked: await deps.admin.revokeKey(values.key) };
      }
      default: {
        if (!values.account) throw new UsageError('--account is required');
        return await deps.admin.grantCredits(values.account, wholeNumber(values.amount, 'amount', true));
      }
    }
  } finally {
    await deps.close();
    await database.stop();
  }
}

run(process.argv.slice(2)).then(
  (out) => {
    process.stdout.write(`${JSON.stringify(out)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`${JSON.stringify({ error: message })}\n`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
