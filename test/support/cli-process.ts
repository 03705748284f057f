import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The admin CLI as operators run it (`node --import tsx src/app/cli.ts ...`), with only the
 * database and Redis settings in `urls` (none inherited from the test's own environment), killed
 * if it has not answered in 20 s: behind a transaction pooler it once hung on its first command.
 */
export function runCli(urls: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  for (const name of ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'DATABASE_URL', 'DATABASE_DIRECT_URL']) delete env[name];
  Object.assign(env, urls);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/app/cli.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += '\n(killed: no answer within 20 s)';
      child.kill('SIGKILL');
    }, 20_000);
    child.on('error', (err) => (clearTimeout(timer), reject(err)));
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

/** runCli, failing with the command and its stderr unless it exits 0; the printed JSON object. */
export async function cliJson<T>(urls: Record<string, string>, ...args: string[]): Promise<T> {
  const result = await runCli(urls, ...args);
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
