import { ask, askRaw, type RedisClusterProcess } from './redis-cluster.js';

/**
 * What an operator does to a running Redis Cluster, for tests: move one slot to another master
 * (as `redis-cli --cluster reshard` does, one slot only), and read a node's command and error
 * counters.
 */

/** Moves `slot` with its keys from its master to another one; clients then meet ASK, then MOVED. */
export async function moveSlot(cluster: RedisClusterProcess, slot: number): Promise<{ from: number; to: number }> {
  const masters = (await cluster.topology()).filter((n) => n.role === 'master' && n.slots.length > 0);
  const source = masters.find((m) => m.slots.some(([a, b]) => slot >= a && slot <= b))!;
  const target = masters.find((m) => m.id !== source.id)!;
  await ask(target.port, 'CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', source.id);
  await ask(source.port, 'CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', target.id);
  for (;;) {
    const keys = (await askRaw(source.port, 'CLUSTER', 'GETKEYSINSLOT', String(slot), '100')) as string[];
    if (keys.length === 0) break;
    await ask(source.port, 'MIGRATE', '127.0.0.1', String(target.port), '', '0', '5000', 'KEYS', ...keys);
  }
  // The new owner first, then the old one, then every other master (the order redis-cli uses).
  for (const node of [target, source, ...masters.filter((m) => m.id !== source.id && m.id !== target.id)]) {
    await ask(node.port, 'CLUSTER', 'SETSLOT', String(slot), 'NODE', target.id);
  }
  return { from: source.port, to: target.port };
}

/** Lua script runs (EVAL and EVALSHA) and errors by kind (`MOVED=3`) since the node started. */
export async function nodeStats(port: number): Promise<{ scriptCalls: number; errors: string[] }> {
  const commands = await ask(port, 'INFO', 'commandstats');
  const errors = await ask(port, 'INFO', 'errorstats');
  const calls = (name: string) => Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(commands)?.[1] ?? 0);
  return {
    scriptCalls: calls('evalsha') + calls('eval'),
    errors: [...errors.matchAll(/^errorstat_(\w+):count=(\d+)/gm)].map((m) => `${m[1]}=${m[2]}`),
  };
}
