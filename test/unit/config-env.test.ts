import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadEnvFile, parseConfig, sessionDatabaseUrl } from '../../src/config.js';

const dir = await mkdtemp(path.join(tmpdir(), 'ads-env-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('.env and .env.example', () => {
  it('.env.example names every variable the configuration reads, and the production guide\'s table does too', async () => {
    const example = await readFile('.env.example', 'utf8');
    const readme = await readFile('docs/guides/production.md', 'utf8');
    for (const name of CONFIG_VARIABLES) {
      expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
      if (name !== 'NODE_ENV') expect(readme, name).toContain(`\`${name}\``);
    }
  });

  it('loadEnvFile reads a present file, the environment winning; a missing file is no error', async () => {
    const file = path.join(dir, '.env');
    await writeFile(file, 'ADS_ENV_TEST_A=from-file\nADS_ENV_TEST_B="quoted # kept"\n');
    process.env.ADS_ENV_TEST_A = 'from-environment';
    expect(loadEnvFile(file)).toBe(true);
    expect(process.env.ADS_ENV_TEST_A).toBe('from-environment');
    expect(process.env.ADS_ENV_TEST_B).toBe('quoted # kept');
    expect(loadEnvFile(path.join(dir, 'absent.env'))).toBe(false);
    delete process.env.ADS_ENV_TEST_A;
    delete process.env.ADS_ENV_TEST_B;
  });

  it('DATABASE_DIRECT_URL is for what needs a session, only beside the DATABASE_URL it complements', () => {
    const both = parseConfig({ DATABASE_URL: 'postgres://u@pgbouncer:6432/ads', DATABASE_DIRECT_URL: 'postgres://u@db:5432/ads' });
    expect(sessionDatabaseUrl(both, both.databaseUrl!)).toBe('postgres://u@db:5432/ads');
    const one = parseConfig({ DATABASE_URL: 'postgres://u@db:5432/ads' });
    expect(one.databaseDirectUrl).toBeNull();
    expect(sessionDatabaseUrl(one, one.databaseUrl!)).toBe('postgres://u@db:5432/ads');
    expect(() => parseConfig({ DATABASE_DIRECT_URL: 'postgres://u@db:5432/ads' })).toThrow(/^Invalid setting DATABASE_DIRECT_URL/);
  });

  it('TRUSTED_PROXIES takes addresses and CIDR ranges, and names itself when wrong', () => {
    expect(parseConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    expect(parseConfig({}).trustedProxies).toEqual([]);
    for (const bad of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/2', '::1/129']) {
      expect(() => parseConfig({ TRUSTED_PROXIES: bad })).toThrow(/^Invalid setting TRUSTED_PROXIES/);
    }
  });

  it('the credit holds\' heartbeat is read from HOLD_HEARTBEAT_MS and HOLD_STALE_MS, the window spanning at least 3 beats', () => {
    expect(parseConfig({}).creditHolds).toEqual({ heartbeatMs: 2_000, staleAfterMs: 10_000 });
    expect(parseConfig({ HOLD_HEARTBEAT_MS: '500', HOLD_STALE_MS: '1500' }).creditHolds).toEqual({ heartbeatMs: 500, staleAfterMs: 1_500 });
    expect(() => parseConfig({ HOLD_HEARTBEAT_MS: '1000', HOLD_STALE_MS: '2999' })).toThrow(/^Invalid setting HOLD_STALE_MS/);
  });

  it('REDIS_CLUSTER_NODES takes host:port seeds, refuses anything else, and excludes REDIS_URL', () => {
    expect(parseConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b:7001,[::1]:7002' }).redisClusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-b', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    expect(parseConfig({}).redisClusterNodes).toBeNull();
    for (const bad of ['', 'redis-a', 'redis-a:0', 'redis-a:70000', 'redis://redis-a:7000', '10.0.0.1:7000,nope']) {
      expect(() => parseConfig({ REDIS_CLUSTER_NODES: bad })).toThrow(/^Invalid setting REDIS_CLUSTER_NODES/);
    }
    expect(() => parseConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' })).toThrow(/^Invalid setting REDIS_CLUSTER_NODES: set REDIS_URL .* not both/);
  });
});
