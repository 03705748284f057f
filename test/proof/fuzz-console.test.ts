import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

/**
 * The console's faces under text with control characters (issue 23): POST /console/session and
 * every console procedure that takes input, signed in, with strings drawn to carry NUL, ESC, line
 * breaks, DEL and ordinary text around them. Every answer is below 500 and JSON; one holding a
 * control character is a 400 naming its field; no log line carries SQL or an internal error.
 */
const RUNS = Number(process.env.FUZZ_CONSOLE_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);

let app: TestApp;
const lines: string[] = [];
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  app = await startTestApp({ log: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) });
  await app.deps.admin.createAccount({ email: 'fuzz@example.com', plan: 'free', credits: 0, verified: true, password: 'fuzz password 1' });
  const res = await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'fuzz@example.com', password: 'fuzz password 1' }) });
  session = { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await res.json()) as { csrf: string }).csrf };
});
afterAll(() => app.close());

const CONTROL = /[\u0000-\u001f\u007f]/;
const controlText = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom('\u0000', '\u001b', '\n', '\r', '\t', '\u007f', '\u0008', ''), fc.string({ maxLength: 12 }))
  .map(([a, c, b]) => `${a}${c}${b}`);
const consoleCall = fc.oneof(
  fc.record({ target: fc.constant('session' as const), field: fc.constantFrom('email', 'password'), value: controlText }),
  fc.record({ target: fc.constant('revokeKey' as const), field: fc.constant('keyId'), value: controlText }),
  fc.record({ target: fc.constant('sandboxSearch' as const), field: fc.constant('location'), value: controlText }),
  fc.record({ target: fc.constant('createKey' as const), field: fc.constant('env'), value: controlText }),
);

describe('console faces with control characters', () => {
  it('answer 4xx JSON naming the field, never 5xx, and log no SQL', async () => {
    const failures: string[] = [];
    for (const c of fc.sample(consoleCall, { numRuns: RUNS, seed: SEED })) {
      const res =
        c.target === 'session'
          ? await fetch(`${app.baseUrl}/console/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'fuzz@example.com', password: 'x', [c.field]: c.value }) })
          : await fetch(`${app.baseUrl}/console/trpc/console.${c.target}`, {
              method: 'POST',
              headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrf, 'Content-Type': 'application/json' },
              body: JSON.stringify({ [c.field]: c.value }),
            });
      const text = await res.text();
      const problems: string[] = [];
      if (res.status >= 500) problems.push(`status ${res.status}`);
      if (text && !/^application\/json/.test(res.headers.get('content-type') ?? '')) problems.push('not JSON');
      if (CONTROL.test(c.value)) {
        if (res.status !== 400) problems.push(`status ${res.status} for a control character`);
        if (!text.includes(`"param":"${c.field}"`)) problems.push('field not named');
      }
      if (problems.length) failures.push(`${c.target} ${c.field}=${JSON.stringify(c.value)}: ${problems.join('; ')} -> ${text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('\n');
    expect(log).not.toMatch(/Failed query|insert into|params:/i);
    expect(log).not.toContain('"level":50');
  }, 120_000);
});
