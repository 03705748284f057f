/**
 * Names of the token buckets (spec 8.1), built here and nowhere else, like cache keys
 * (conventions rule 13). The Redis limiter stores each under `rl:<name>`.
 *
 * Buckets of an account start with its id as a Redis Cluster hash tag, `{acct:<id>}`: only the
 * text between the braces picks the slot, so every bucket of one account (its keys', its MCP
 * user's, its console's) lives on one master. Each script touches one bucket today; the tag keeps
 * a script that checks a key's and its account's buckets together (an account-wide limit) within
 * one slot, and accounts still spread evenly over the masters. Buckets with no account (an
 * address, an e-mail trying to sign in) are their own slot. On one Redis node the braces are
 * plain characters.
 */
const account = (accountId: string) => `{acct:${accountId}}`;

/** REST and tRPC: one bucket per API key. */
export const keyBucket = (accountId: string, keyId: string) => `${account(accountId)}:key:${keyId}`;

/** MCP: one bucket per account (its user), whatever key or token it calls with. */
export const mcpBucket = (accountId: string) => `${account(accountId)}:mcp`;

/** The developer console: one bucket per session, one per account. */
export const consoleSessionBucket = (accountId: string, sessionId: string) => `${account(accountId)}:console:session:${sessionId}`;
export const consoleAccountBucket = (accountId: string) => `${account(accountId)}:console`;

/** Calls without a valid key: one bucket per client address. */
export const addressBucket = (clientAddress: string) => `anon:${clientAddress}`;

/** Password sign-in: one bucket per e-mail (hashed: names land in Redis) and one per address. */
export const signInEmailBucket = (emailKey: string) => `signin:account:${emailKey}`;
export const signInAddressBucket = (clientAddress: string) => `signin:address:${clientAddress}`;
