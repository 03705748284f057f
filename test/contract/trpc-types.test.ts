import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTypes } from '../../tools/build-types.js';

const project = mkdtempSync(join(tmpdir(), 'dashboard-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function compile(): string[] {
  const program = ts.createProgram([join(project, 'client.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.fileName.replace(project, '') : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('npm run build:types', () => {
  it('emits self-contained declarations that a project outside this repository compiles against', () => {
    const files = buildTypes(join(project, 'api-types'));
    expect(files).toContain('index.d.ts');
    // Nothing of the server (database, cache, adapters, zod schemas) is in the declarations.
    expect(files.every((f) => !/adapters|deps|config|schemas/.test(f))).toBe(true);
    // The dashboard has @trpc/client (and its @trpc/server) in its node_modules, nothing else.
    mkdirSync(join(project, 'node_modules/@trpc'), { recursive: true });
    for (const pkg of ['client', 'server']) symlinkSync(resolve(`node_modules/@trpc/${pkg}`), join(project, `node_modules/@trpc/${pkg}`), 'dir');
    cpSync('test/contract/dashboard-client/client.ts.fixture', join(project, 'client.ts'));
    cpSync(join(project, 'api-types/package.json'), join(project, 'package.json'));
    expect(compile()).toEqual([]);
  }, 180_000); // two TypeScript programs; slow on a busy 2-core machine

  it('lets bad input fail to compile (each expected error is really an error)', () => {
    const source = readFileSync(join(project, 'client.ts'), 'utf8');
    const directives = source.split('\n').filter((l) => l.trim().startsWith('// @ts-expect-error')).length;
    expect(directives).toBe(8);
    cpSync(join(project, 'client.ts'), join(project, 'client.orig'));
    try {
      // Without the directives, each marked line must be an error.
      const stripped = source.replace(/^\s*\/\/ @ts-expect-error.*$/gm, '');
      writeFileSync(join(project, 'client.ts'), stripped);
      expect(compile()).toHaveLength(directives);
    } finally {
      cpSync(join(project, 'client.orig'), join(project, 'client.ts'));
    }
  });
});
