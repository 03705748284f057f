import { readFileSync } from 'node:fs';

/**
 * CHANGELOG.md, served at GET /changelog: the `Link: <…/changelog#entry>; rel="deprecation"` of
 * a deprecated item points there (spec 9). Read once, at import, beside package.json as
 * version.ts reads it.
 */
export const CHANGELOG_MARKDOWN: string = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
