import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The official TypeScript SDK's folder, and the repository's own TypeScript compiler. */
export const SDK_DIR = resolve('clients/typescript');
export const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** The repository's tsx command, as `npx tsx` runs it. */
export const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');

type Sdk = typeof import('../../clients/typescript/src/index.js');

/**
 * Builds the SDK as its `npm run build` does (ES modules in `outDir`, CommonJS in `outDir`/cjs)
 * with the repository's tsc, into `outDir` (default: its own dist/).
 */
export function buildSdk(outDir = resolve(SDK_DIR, 'dist')): string {
  execFileSync(process.execPath, [resolve(SDK_DIR, 'scripts/build.mjs'), outDir], { stdio: 'pipe' });
  return outDir;
}

/**
 * Builds the SDK as `npm run build` in its folder does and loads the built entry,
 * clients/typescript/dist/index.js: the tests use what a user installs, not the sources.
 */
export async function importBuiltSdk(): Promise<Sdk> {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: SDK_DIR, stdio: 'pipe' });
  return (await import(pathToFileURL(resolve(SDK_DIR, 'dist/index.js')).href)) as Sdk;
}
