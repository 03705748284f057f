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
 * Admin CLI (README "Admin CLI"): `npm run -s cli -- <command> [options]` (-s: npm prints no banner). Prints one JSON object:
 * the result on stdout with exit 0, or `{ "error": { code, message, hint? } }` on stderr with a
 * non-zero exit (2 for a malformed command line). `--help` works for the CLI and each command.
 */
const overview = (group?: string) => ({
  usage: `npm run -s cli -- ${group ? `${group} ` : ''}<command> [options]   (add --help to a command for its options)`,
  commands: Object.entries(COMMANDS)
    .filter(([command]) => !group || command.startsWith(`${group} `))
    .map(([command, c]) => ({ command, usage: c.usage, description: c.description })),
});

const isGroup = (word: string | undefined) => word !== undefined && Object.keys(COMMANDS).some((c) => c.startsWith(`${word} `));

/**
 * `--amount -100` as `--amount=-100`: parseArgs takes a value that starts with "-" for an option
 * ("argument is ambiguous"), so a negative number would never reach the command's own check.
 */
function joinNegativeValues(args: string[], options: Command['options']): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    if (name && options[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

async function run(argv: string[]): Promise<unknown> {
  // A command is one to three words ("key list", "webhook secret show"): the longest that is known.
  const words = argv.slice(0, 3).filter((w) => !w.startsWith('-'));
  const name = [3, 2, 1].map((n) => words.slice(0, n).join(' ')).find((w) => w !== '' && COMMANDS[w] !== undefined);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') return overview();
    // A group's first word alone (`account --help`) lists the group's commands.
    if (words.length === 1 && isGroup(words[0])) {
      if (argv.includes('--help') || argv.includes('-h')) return overview(words[0]);
      throw new OperatorError('usage', `"${words[0]}" needs a command: ${overview(words[0]).commands.map((c) => c.command).join(', ')}`, `npm run -s cli -- ${words[0]} --help lists them`);
    }
    throw new OperatorError('usage', `unknown command "${words.join(' ')}"; expected one of: ${Object.keys(COMMANDS).join(', ')}`, 'npm run -s cli -- --help lists them');
  }
  let values: Values;
  try {
    const rest = joinNegativeValues(argv.slice(name!.split(' ').length), command.options);
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new OperatorError('usage', err instanceof Error ? err.message : String(err), `usage: ${command.usage}`);
  }
  if (values.help) return { command: name, usage: command.usage, description: command.description };
  const execute = command.prepare(values);

  loadEnvFile();
  const config = parseConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const deps = createDeps(config, database.url, { creditHolds: false });
  try {
    return await execute({ admin: deps.admin, queries: deps.adminQueries, deps });
  } finally {
    await deps.close();
    await database.stop();
  }
}

finishCommand(run(process.argv.slice(2)));
