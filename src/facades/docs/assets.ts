import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Scalar's browser bundle, from the installed npm package: served by us, never from a CDN. Read
 * on first request (4 MB) and kept.
 */
export function scalarBundle(): () => Buffer {
  let bundle: Buffer | undefined;
  return () => {
    bundle ??= readFileSync(join(dirname(fileURLToPath(import.meta.resolve('@scalar/api-reference'))), 'browser/standalone.js'));
    return bundle;
  };
}
