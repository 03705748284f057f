import { parseArgs } from 'node:util';
import { loadEnvFile, parseConfig } from '../config.js';
import { finishCommand } from './operator-output.js';
import { openDatabase } from './database-setup.js';
import { createDeps } from '../deps.js';
import { OperatorError } from '../domain/errors.js';
import { ADMIN_COMMANDS, type Command, type Values } from './cli-commands.js';
import { WEBHOOK_COMMANDS } from './cli-webhooks.js';

const COMMANDS: Record<string, Command> = { ...ADMIN_COMMANDS, ...WEBHOOK_COMMANDS };

/**
 * Admin CLI (README "Admin CLI"): `npm run cli -- <command> [options]`. Prints one JSON object:
 * the result on stdout with exit 0, or `{ "error": { code, message, hint? } }` on stderr with a
 * non-zero exit (2 for a malformed command line). `--help` works for the CLI and each command.
 */
const overview = () => ({
  usage: 'npm run cli -- <command> [options]   (add --help to a command for its options)',
  commands: Object.entries(COMMANDS).map(([command, c]) => ({ command, usage: c.usage, description: c.description })),
});

async function run(argv: string[]): Promise<unknown> {
  // A command is one to three words ("key list", "webhook secret show"): the longest that is known.
  const words = argv.slice(0, 3).filter((w) => !w.startsWith('-'));
  const name = [3, 2, 1].map((n) => words.slice(0, n).join(' ')).find((w) => w !== '' && COMMANDS[w] !== undefined);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') return overview();
    throw new OperatorError('usage', `unknown command "${words.join(' ')}"; expected one of: ${Object.keys(COMMANDS).join(', ')}`, 'npm run cli -- --help lists them');
  }
  let values: Values;
  try {
    const rest = argv.slice(name!.split(' ').length);
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new OperatorError('usage', err instanceof Error ? err.message : String(err), `usage: ${command.usage}`);
  }
  if (values.help) return { command: name, usage: command.usage, description: command.description };
  const execute = command.prepare(values);

  loadEnvFile();
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const deps = createDeps(config, database.url);
  try {
    return await execute({ admin: deps.admin, queries: deps.adminQueries, deps });
  } finally {
    await deps.close();
    await database.stop();
  }
}

finishCommand(run(process.argv.slice(2)));
