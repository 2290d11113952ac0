/**
 * `npm run build:server` (part of `npm run build`): server/main.ts and our code as one CommonJS file,
 * dist-server/main.cjs, which `npm start` runs with plain `node`. Packages stay in node_modules
 * (native ones must, and a package loaded on demand is then loaded only when used). Under tsx the
 * idle server was ~200 MB: tsx's loader and its transforms of each of our files stay in memory; the
 * bundle starts at ~135 MB and in ~0.2 s of CPU instead of ~2.5 s (docs/object-store.md, "The server's
 * memory"). CommonJS, not ESM: packages are then resolved as `require` resolves them
 * (`crypto-js/aes` has no `exports` map, which Node's ESM resolver refuses without `.js`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(ROOT, 'dist-server', 'main.cjs');

export async function buildServer(outfile = SERVER_BUNDLE): Promise<string> {
  await build({
    entryPoints: [path.join(ROOT, 'server', 'main.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`${path.relative(ROOT, SERVER_BUNDLE)} written`);
}
