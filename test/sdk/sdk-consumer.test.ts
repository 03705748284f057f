import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { buildSdk, SDK_DIR, TSC, TSX_CLI } from '../support/sdk.js';

/**
 * The SDK as a user gets it: packed into a folder outside the repository (its package.json and a
 * fresh build), installed into a scratch project with `npm install <folder>` (offline: a link),
 * compiled there under strict and exactOptionalPropertyTypes, and run against the sandbox.
 */
const scratch = mkdtempSync(join(tmpdir(), 'sdk-consumer-'));
const pkg = join(scratch, 'sdk');
const project = join(scratch, 'app');
let app: TestApp;

/** A README's ten-line example (the first after `from`), compiled with the scratch project so it stays true. */
function readmeExample(file: string, from = '', asModule = true): string {
  const text = readFileSync(file, 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(text.slice(text.indexOf(from)))?.[1];
  if (!example) throw new Error(`${file} has no \`\`\`ts example after "${from}"`);
  return asModule ? `${example}export {};\n` : example;
}

const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022'], types: [],
    strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, outDir: 'dist', rootDir: 'src',
  },
  include: ['src'],
};

beforeAll(async () => {
  mkdirSync(pkg, { recursive: true });
  cpSync(join(SDK_DIR, 'package.json'), join(pkg, 'package.json'));
  buildSdk(join(pkg, 'dist'));
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
  cpSync(resolve('test/sdk/consumer'), join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src/readme-example.ts'), readmeExample(join(SDK_DIR, 'README.md')));
  writeFileSync(join(project, 'src/root-readme-example.ts'), readmeExample('README.md', '### The TypeScript SDK'));
  execFileSync('npm', ['install', pkg, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, stdio: 'pipe' });
  app = await startTestApp();
}, 120_000);
afterAll(async () => {
  await app?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the SDK from a scratch project outside the repository', () => {
  it('is installed as a dependency and compiles (the README examples too) under strict and exactOptionalPropertyTypes', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(['@accommodation-data/sdk']);
    const compiled = (() => {
      try {
        return execFileSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8' });
      } catch (e) {
        return (e as { stdout: string }).stdout;
      }
    })();
    expect(compiled).toBe('');
  }, 120_000);

  it('runs against the sandbox', async () => {
    const { key } = await app.newKey('sandbox');
    // Asynchronous: this process serves the app the program calls.
    const { stdout } = await promisify(execFile)(process.execPath, [join(project, 'dist/main.js'), app.baseUrl, key]);
    expect(JSON.parse(stdout)).toEqual({ currency: 'EUR', firstOn: expect.stringMatching(/^(booking|airbnb)$/), porto: 45, worstCase: 0, badCode: '400 mutually_exclusive_params', env: 'sandbox' });
  });
});

/**
 * The README's example as a new user runs it: saved as example.ts in a project `npm init -y` made
 * (CommonJS, npm's default) or one saying "type": "module", the SDK installed, run with tsx. Only
 * the key and the base URL are replaced. A CommonJS project needs the SDK's `require` build and an
 * example without a top-level await.
 */
describe.each(['commonjs', 'module'] as const)('the SDK README example in a default %s project', (type) => {
  const dir = join(scratch, `default-${type}`);

  it('installs, runs as written and reaches the sandbox', async () => {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'pipe' });
    execFileSync('npm', ['pkg', 'set', `type=${type}`], { cwd: dir, stdio: 'pipe' });
    execFileSync('npm', ['install', pkg, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'pipe' });
    const { key } = await app.newKey('sandbox');
    const example = readmeExample(join(SDK_DIR, 'README.md'), '', false).replace('svc_test_...', key).replace('http://localhost:3000', app.baseUrl);
    writeFileSync(join(dir, 'example.ts'), example);
    const { stdout } = await promisify(execFile)(process.execPath, [TSX_CLI, 'example.ts'], { cwd: dir });
    expect(stdout).toMatch(/^400 limit_out_of_range limit req_/m);
    expect(stdout).toMatch(/: \d+(\.\d+)? [A-Z]{3}/);
  }, 120_000);

  it('is loaded by plain JavaScript with the module system the project uses', async () => {
    const program =
      type === 'commonjs'
        ? "const { AccommodationClient } = require('@accommodation-data/sdk'); console.log(typeof AccommodationClient);"
        : "import { AccommodationClient } from '@accommodation-data/sdk'; console.log(typeof AccommodationClient);";
    writeFileSync(join(dir, 'plain.js'), program);
    const { stdout } = await promisify(execFile)(process.execPath, ['plain.js'], { cwd: dir });
    expect(stdout.trim()).toBe('function');
  });
});
