import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBinaries, embeddedBinaries } from '../../src/adapters/postgres/embedded/binaries.js';

/**
 * `npm ci --ignore-scripts` installs the platform package without running the script that
 * recreates its library links: the same files, minus the symlinks. Rebuilt here from the
 * installed package, the real binary fails to load and the check says what to run.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('embedded PostgreSQL binaries', () => {
  it('the installed ones run', async () => {
    await expect(embeddedBinaries()).resolves.toMatchObject({ postgres: expect.stringContaining('postgres') });
  });

  it.runIf(process.platform === 'linux')('installed without their library links, they are reported as embedded_binaries_broken with the fix', async () => {
    const { postgres } = await embeddedBinaries();
    const native = path.resolve(path.dirname(postgres), '..');
    const copy = await mkdtemp(path.join(tmpdir(), 'ads-noscripts-'));
    dirs.push(copy);
    await mkdir(path.join(copy, 'bin'));
    await cp(postgres, path.join(copy, 'bin', 'postgres'));
    await mkdir(path.join(copy, 'lib'));
    for (const entry of await readdir(path.join(native, 'lib'), { withFileTypes: true })) {
      if (entry.isFile() && entry.name.includes('.so')) await cp(path.join(native, 'lib', entry.name), path.join(copy, 'lib', entry.name));
    }
    const failure = checkBinaries({ postgres: path.join(copy, 'bin', 'postgres'), initdb: '' });
    await expect(failure).rejects.toMatchObject({ code: 'embedded_binaries_broken', message: expect.stringMatching(/shared librar/), hint: expect.stringMatching(/npm rebuild|--ignore-scripts/) });
  }, 60_000);
});
