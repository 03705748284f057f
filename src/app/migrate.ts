import { loadEnvFile, parseConfig } from '../config.js';
import { finishCommand } from './operator-output.js';
import { openDatabase } from './database-setup.js';

/**
 * `npm run migrate` (or `node dist/app/migrate.js`): applies drizzle/ and the job queue's schema to
 * DATABASE_URL (or the embedded database) and exits, for deployments that migrate before they
 * roll out new processes. Starting the service applies them too; both are idempotent.
 */
async function migrate(): Promise<unknown> {
  loadEnvFile();
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  await database.stop();
  return { migrated: true, database: database.embedded ? 'embedded' : 'DATABASE_URL' };
}

finishCommand(migrate());
