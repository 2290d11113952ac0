/**
 * The sync bench's engine process (sync-child.ts) bundled, as it ships (Electron's utility process gets
 * an esbuild bundle too): under tsx the TypeScript loader alone held ~60 MB more. Used by the `sync`
 * suite and by sync-profile.ts.
 */
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');

/** Builds the bundle and answers its path. */
export async function bundleSyncChild(): Promise<string> {
  // Inside the repository, so the bundle finds better-sqlite3 (a native module, not bundled) in node_modules.
  const out = path.join(ROOT, '.tsbuild', 'bench', 'sync-child.mjs');
  await build({
    entryPoints: [path.join(ROOT, 'tests/bench/lib/sync-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    external: ['better-sqlite3'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return out;
}
