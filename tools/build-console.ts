import { existsSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/**
 * Builds the developer console into console/dist. The build goes to a folder of its own and is
 * swapped in by renames, so a server (or a test) reading console/dist while another process
 * rebuilds it never finds the folder half-written.
 */
const root = fileURLToPath(new URL('../console/', import.meta.url));
const target = `${root}dist`;
const fresh = `${root}.dist-${process.pid}`;
const old = `${root}.old-${process.pid}`;

await build({ configFile: `${root}vite.config.ts`, build: { outDir: fresh, emptyOutDir: true } });
if (existsSync(target)) renameSync(target, old);
renameSync(fresh, target);
rmSync(old, { recursive: true, force: true });
