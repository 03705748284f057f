import { lookup } from 'node:dns/promises';
import type { ResolveHost } from './callback-url.js';

/** Every address the system resolver gives for a host (as a connection would see them). */
export const systemResolver: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
