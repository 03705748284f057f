import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * Examples that cannot rot: every fenced block marked `example` in the README and the guides is
 * run against the sandbox, as a reader would run it, with only the key and the address replaced.
 * A shell example is one curl; its `# expect: <status> <path>` line names the status and a field
 * of the JSON answer that must be there (not null). A TypeScript example runs with tsx from the
 * repository (its packages resolve there); its `// expect: <text>` line is text it must print.
 * A block that calls the service without being marked fails here, so none escapes the run.
 */
const DOCS = ['README.md', ...readdirSync('docs/guides').filter((f) => f.endsWith('.md')).map((f) => join('docs/guides', f))];
const SCRATCH = resolve('.scratch/doc-examples');
const run = promisify(execFile);

interface Example {
  name: string;
  lang: 'sh' | 'ts';
  code: string;
  expected: string;
}

function examplesOf(file: string): { examples: Example[]; unmarked: string[] } {
  const text = readFileSync(file, 'utf8');
  const examples: Example[] = [];
  const unmarked: string[] = [];
  for (const m of text.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```/gm)) {
    const [, lang, info, code] = m as unknown as [string, string, string, string];
    const line = text.slice(0, m.index).split('\n').length;
    const name = `${file}:${line}`;
    if (info.trim() === 'example' && (lang === 'sh' || lang === 'ts')) {
      const expected = /^(?:#|\/\/) expect: (.+)$/m.exec(code)?.[1];
      if (!expected) throw new Error(`${name}: an example needs an "expect:" line`);
      examples.push({ name, lang, code, expected: expected.trim() });
    } else if ((lang === 'sh' && /curl[^\n]*svc_test_/.test(code)) || (lang === 'ts' && code.includes('svc_test_'))) {
      unmarked.push(name);
    }
  }
  return { examples, unmarked };
}

/** The SDK's own README example, which test/sdk/sdk-consumer.test.ts runs in two kinds of project. */
const sdkExample = /```ts\n([\s\S]*?)```/.exec(readFileSync('clients/typescript/README.md', 'utf8'))![1]!;

function pathValue(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[k]), value);
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  mkdirSync(SCRATCH, { recursive: true });
});
afterAll(async () => {
  await app?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
});

const all = DOCS.map((f) => ({ file: f, ...examplesOf(f) }));

describe('the examples of the README and the guides', () => {
  it('every block that calls the service is a marked example (or the SDK example its own test runs)', () => {
    const unmarked = all.flatMap((d) => d.unmarked.filter((name) => {
      const at = Number(name.split(':').pop());
      const text = readFileSync(d.file, 'utf8').split('\n').slice(at).join('\n');
      return !text.startsWith(sdkExample);
    }));
    expect(unmarked).toEqual([]);
    expect(all.flatMap((d) => d.examples).length).toBeGreaterThanOrEqual(15);
  });

  it.each(all.flatMap((d) => d.examples).map((e) => [e.name, e] as const))('%s runs against the sandbox', async (_name, example) => {
    // Each example has an account of its own: the sandbox's 30 requests a minute are per account.
    const { key } = await app.newKey('sandbox');
    const host = app.baseUrl.replace(/^http:\/\//, '');
    const code = example.code.replaceAll('svc_test_...', key).replaceAll('http://localhost:3000', app.baseUrl).replaceAll('localhost:3000', host);
    if (example.lang === 'sh') {
      const [command] = code.split('\n').filter((l) => l.startsWith('curl '));
      expect(command, `${example.name} has no curl line`).toBeDefined();
      const { stdout } = await run('bash', ['-c', command!.replace(/^curl /, "curl -w '\\n%{http_code}' ")]);
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      const body = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as unknown;
      const [wantStatus, path] = example.expected.split(/\s+/);
      expect(status, stdout.slice(0, 500)).toBe(wantStatus);
      if (path) expect(pathValue(body, path) ?? null, `${example.name}: ${path} in ${stdout.slice(0, 500)}`).not.toBeNull();
    } else {
      const file = join(SCRATCH, `${basename(example.name).replace(/[^\w]/g, '-')}.ts`);
      writeFileSync(file, code);
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: SCRATCH });
      expect(stdout).toContain(example.expected);
    }
  }, 60_000);
});
