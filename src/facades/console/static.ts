import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built console (console/dist, made by `npm run build:console`), from src/ and dist/ alike. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A file of the build by its path under /console, or null (unknown, or outside the folder). */
export function consoleFile(relative: string): { body: Buffer; type: string; immutable: boolean } | null {
  const file = normalize(join(CONSOLE_DIST, relative === '' || relative === '/' ? 'index.html' : relative));
  if (!file.startsWith(CONSOLE_DIST) || !existsSync(file)) return null;
  const type = TYPES[extname(file)];
  if (!type) return null;
  // Vite names assets by content hash: they never change under one name.
  return { body: readFileSync(file), type, immutable: relative.startsWith('/assets/') };
}
