import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'contract/trpc.d.ts';

/**
 * Changes to source files, by path from the repository root, applied as the program reads them:
 * a test emits the declarations of a changed procedure without touching the file.
 */
export type SourceEdits = Record<string, (text: string) => string>;

/**
 * `npm run build:types`: the declarations of src/contract/trpc.ts and only the files they import
 * (a handful, none of them importing anything but @trpc/server), plus an index exporting
 * `AppRouter`. A dashboard copies or installs the folder and compiles with @trpc/client alone.
 * Returns the files written, relative to `outDir`.
 */
export function buildTypes(outDir = join(ROOT, 'dist/types'), edits: SourceEdits = {}): string[] {
  const emitted = new Map<string, string>();
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: join(ROOT, 'src'),
    outDir: '/out',
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => {
    const text = read(file);
    const edit = edits[relative(ROOT, resolve(file)).split('\\').join('/')];
    return text !== undefined && edit ? edit(text) : text;
  };
  const program = ts.createProgram([join(ROOT, 'src/contract/trpc.ts')], options, host);
  const result = program.emit(undefined, (file, text) => emitted.set(posix.relative('/out', file), text));
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));

  // The closure of the entry over relative imports; anything else it imports must be @trpc/server.
  const keep = new Set<string>();
  const visit = (file: string) => {
    if (keep.has(file)) return;
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`declaration ${file} was not emitted`);
    keep.add(file);
    for (const [, spec] of text.matchAll(/(?:from |import\()["']([^"']+)["']/g)) {
      if (spec!.startsWith('.')) visit(posix.join(posix.dirname(file), spec!.replace(/\.js$/, '.d.ts')));
      else if (spec !== '@trpc/server') throw new Error(`${file} imports ${spec}: the declarations would not be self-contained`);
    }
  };
  visit(ENTRY);
  const files = [...keep].sort();
  for (const file of files) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file), emitted.get(file)!);
  }
  writeFileSync(join(outDir, 'index.d.ts'), "export type { DashboardRouter as AppRouter, DashboardErrorShape } from './contract/trpc.js';\nexport type { AsyncAnswer, AcceptedMeta, JobHandleView } from './domain/model/async-answer.js';\n");
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ name: '@accommodation-data-service/trpc-types', private: true, type: 'module', types: './index.d.ts', peerDependencies: { '@trpc/server': '11.x' } }, null, 2)}\n`);
  return [...files, 'index.d.ts', 'package.json'];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = join(ROOT, 'dist/types');
  console.log(`${relative(ROOT, out)}: ${buildTypes(out).join(', ')}`);
}
