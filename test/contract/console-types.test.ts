import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTypes } from '../../tools/build-types.js';

/**
 * The console compiles against the declarations `npm run build:types` emits, not against src:
 * a copy of console/ next to a freshly emitted dist/types, with the console's own tsconfig.
 */
const project = mkdtempSync(join(tmpdir(), 'console-types-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
cpSync('console/src', join(project, 'console/src'), { recursive: true });
cpSync('console/tsconfig.json', join(project, 'console/tsconfig.json'));
cpSync('console/vite.config.ts', join(project, 'console/vite.config.ts'));
symlinkSync(resolve('node_modules'), join(project, 'node_modules'), 'dir');

function typeCheckConsole(): string[] {
  const configFile = join(project, 'console/tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, join(project, 'console'));
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.fileName.replace(project, '') : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the console type-checks against the emitted AppRouter', () => {
  it('compiles as the procedures are, and really reads the emitted declarations', () => {
    mkdirSync(join(project, 'dist'), { recursive: true });
    buildTypes(join(project, 'dist/types'));
    const declarations = readFileSync(join(project, 'dist/types/contract/trpc.d.ts'), 'utf8');
    expect(declarations).toMatch(/console: \{\s+overview: TRPCQueryProcedure/);
    expect(typeCheckConsole()).toEqual([]);
  }, 180_000);

  it('fails when a console procedure changes its output (overview renames balance)', () => {
    const router = 'src/router/console/console-router.ts';
    const source = readFileSync(router, 'utf8');
    expect(source).toContain('balance: row.balance,');
    buildTypes(join(project, 'dist/types'), { [router]: (text) => text.replace('balance: row.balance,', 'creditBalance: row.balance,') });
    expect(readFileSync(join(project, 'dist/types/contract/trpc.d.ts'), 'utf8')).toContain('creditBalance: number;');
    const errors = typeCheckConsole();
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.startsWith('/console/src/overview.tsx') && e.includes("'balance'"))).toBe(true);
  }, 180_000);
});
