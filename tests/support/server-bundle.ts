/**
 * server/main.ts as one CommonJS file, built once per test process by esbuild (dependencies stay in
 * node_modules), for tests that start server processes: under tsx every start resolved and
 * transformed the whole server again (~2.5 s of CPU before main() ran, against ~0.2 s for the
 * bundle), which on a busy machine outlasted the tests' timeouts.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

export const REPO_ROOT = path.resolve(__dirname, '../..');

const bundles = new Map<string, Promise<string>>();

/**
 * `entry` (a path from the repository's root) as one CommonJS file, built once per test process; its
 * own name per test process, as vitest workers run side by side.
 */
export function nodeBundle(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = (async () => {
      // Inside the repository, so the bundle finds its dependencies (native ones too) in node_modules.
      const name = path.basename(entry, path.extname(entry));
      const out = path.join(REPO_ROOT, '.tsbuild', 'test-bundles', `${name}-${process.pid}.cjs`);
      await build({
        entryPoints: [path.join(REPO_ROOT, entry)],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        packages: 'external',
        outfile: out,
        logLevel: 'silent',
      });
      process.once('exit', () => rmSync(out, { force: true }));
      return out;
    })();
    bundles.set(entry, bundle);
  }
  return bundle;
}

/** server/main.ts bundled: the server the process tests start. */
export function serverBundle(): Promise<string> {
  return nodeBundle('server/main.ts');
}
