import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts `test/support/worker-process.ts` as a real process (one a test can SIGKILL) with these
 * extra environment variables; resolves once it says it is ready, rejects if it exits first.
 * Each child is pushed onto `children`, for the test's cleanup.
 */
export function spawnWorkerProcess(env: Record<string, string>, children: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/worker-process.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('worker ready')) resolve(child);
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
}
