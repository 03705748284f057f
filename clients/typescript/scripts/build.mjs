// Builds both module systems from the same sources: ES modules in dist/ (the "import" condition)
// and CommonJS in dist/cjs/ (the "require" condition), each with its own declarations.
// Usage: node scripts/build.mjs [outDir]   (default dist; the repository's tests build elsewhere)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = resolve(process.argv[2] ?? join(here, 'dist'));
const tsc = createRequire(join(here, 'package.json')).resolve('typescript/bin/tsc');

execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' });
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.cjs.json'), '--outDir', join(outDir, 'cjs')], { stdio: 'inherit' });
// dist/cjs/*.js are CommonJS although the package says "type": "module": the nearest package.json wins.
mkdirSync(join(outDir, 'cjs'), { recursive: true });
writeFileSync(join(outDir, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
