import type { Admin } from '../adapters/postgres/accounts/admin.js';
import type { Deps } from '../deps.js';
import type { AdminQueries } from '../adapters/postgres/accounts/admin-queries.js';
import { OperatorError } from '../domain/errors.js';
import { isPlanCode, PLAN_CODES } from '../domain/accounts/plans.js';

export type Values = Record<string, string | boolean | undefined>;
export interface CommandContext {
  admin: Admin;
  queries: AdminQueries;
  deps: Deps;
}

export interface Command {
  usage: string;
  description: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  /** Checks the arguments before any database is opened; returns what to run. */
  prepare(v: Values): (ctx: CommandContext) => Promise<unknown>;
}

export const usage = (message: string) => new OperatorError('usage', message, 'add --help to the command for its options');

export function required(v: Values, name: string): string {
  const value = v[name];
  if (typeof value !== 'string' || value === '') throw usage(`--${name} is required`);
  return value;
}

/** Credits move in whole, positive amounts; the direction is the command (grant or revoke). */
function positiveAmount(v: Values): number {
  const raw = required(v, 'amount');
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n <= 0) throw usage('--amount must be a positive whole number');
  return n;
}

function password(v: Values): string {
  const value = required(v, 'password');
  if (value.length < 8) throw usage('--password must have at least 8 characters');
  return value;
}

const account = { account: { type: 'string' } } as const;

/** The admin CLI's commands (README "Admin CLI"); each prints one JSON object. */
export const ADMIN_COMMANDS: Record<string, Command> = {
  'account create': {
    usage: 'account create --email E [--plan free|starter|pro|scale|enterprise] [--credits N] [--unverified] [--password P]',
    description: 'Opens an account; credits given here are its opening grant.',
    options: { email: { type: 'string' }, plan: { type: 'string' }, credits: { type: 'string' }, unverified: { type: 'boolean' }, password: { type: 'string' } },
    prepare(v) {
      const email = required(v, 'email');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw usage('--email must be an e-mail address');
      const plan = typeof v.plan === 'string' ? v.plan : 'free';
      if (!isPlanCode(plan)) throw usage(`--plan must be one of ${PLAN_CODES.join(', ')}`);
      const credits = v.credits === undefined ? 0 : Number(v.credits);
      if (typeof v.credits === 'string' && !(/^\d+$/.test(v.credits) && Number.isSafeInteger(credits))) throw usage('--credits must be a whole number');
      const pw = v.password === undefined ? null : password(v);
      return ({ admin }) => admin.createAccount({ email, plan, credits, verified: !v.unverified, password: pw });
    },
  },
  'account show': {
    usage: 'account show --account ID | --email E',
    description: 'Plan, balance, verification, whether a password is set, and the keys (prefixes only).',
    options: { ...account, email: { type: 'string' } },
    prepare(v) {
      if (typeof v.account !== 'string' && typeof v.email !== 'string') throw usage('--account or --email is required');
      return ({ queries }) => queries.showAccount({ ...(typeof v.account === 'string' ? { accountId: v.account } : {}), ...(typeof v.email === 'string' ? { email: v.email } : {}) });
    },
  },
  'account verify': {
    usage: 'account verify --account ID',
    description: 'Marks the e-mail verified, which live calls require (clears email_unverified).',
    options: account,
    prepare(v) {
      const id = required(v, 'account');
      return ({ admin }) => admin.verifyAccount(id);
    },
  },
  'account set-password': {
    usage: 'account set-password --account ID --password P',
    description: 'Sets the password of the OAuth sign-in page (at least 8 characters).',
    options: { ...account, password: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      const pw = password(v);
      return ({ admin }) => admin.setPassword(id, pw);
    },
  },
  'key create': {
    usage: 'key create --account ID --env live|sandbox',
    description: 'Creates a key and prints it: the only time it is shown.',
    options: { ...account, env: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      if (v.env !== 'live' && v.env !== 'sandbox') throw usage('--env must be live or sandbox');
      const env = v.env;
      return async ({ admin }) => {
        const { key, keyId } = await admin.createKey(id, env);
        return { key, keyId };
      };
    },
  },
  'key list': {
    usage: 'key list --account ID',
    description: "The account's keys: id, prefix, kind, created and revoked times.",
    options: account,
    prepare(v) {
      const id = required(v, 'account');
      return ({ queries }) => queries.listKeys(id);
    },
  },
  'key revoke': {
    usage: 'key revoke --key KEY_ID|KEY',
    description: 'Revokes a key by its id or by the key itself; at once in this process, within 2 s everywhere.',
    options: { key: { type: 'string' } },
    prepare(v) {
      const key = required(v, 'key');
      return async ({ admin }) => {
        if (!(await admin.revokeKey(key))) throw new OperatorError('key_not_found', 'no such key', 'list the keys with `key list --account ID`');
        return { revoked: true };
      };
    },
  },
  'credits grant': {
    usage: 'credits grant --account ID --amount N',
    description: 'Adds N credits (N > 0) as one ledger entry; prints the new balance.',
    options: { ...account, amount: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      const amount = positiveAmount(v);
      return ({ admin }) => admin.adjustCredits(id, amount, 'grant');
    },
  },
  'credits revoke': {
    usage: 'credits revoke --account ID --amount N',
    description: 'Removes N credits (N > 0) as one ledger entry, never below a balance of 0; prints the new balance.',
    options: { ...account, amount: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      const amount = positiveAmount(v);
      return ({ admin }) => admin.adjustCredits(id, -amount, 'revoke');
    },
  },
  usage: {
    usage: 'usage --account ID [--since YYYY-MM-DD]',
    description: 'Ledger sums per UTC day and operation; credits are negative for charges, positive for grants.',
    options: { ...account, since: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      let since: Date | null = null;
      if (typeof v.since === 'string') {
        since = /^\d{4}-\d{2}-\d{2}$/.test(v.since) ? new Date(`${v.since}T00:00:00Z`) : new Date(NaN);
        if (Number.isNaN(since.getTime())) throw usage('--since must be a date, YYYY-MM-DD');
      }
      return ({ queries }) => queries.usage(id, since);
    },
  },
  'jobs list': {
    usage: 'jobs list --account ID [--limit N]',
    description: "The account's async jobs, newest first (default 50, at most 500).",
    options: { ...account, limit: { type: 'string' } },
    prepare(v) {
      const id = required(v, 'account');
      const limit = v.limit === undefined ? 50 : Number(v.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw usage('--limit must be a whole number from 1 to 500');
      return ({ queries }) => queries.listJobs(id, limit);
    },
  },
};
