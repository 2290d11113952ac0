/**
 * Bundles the Electron main process (ESM), the preload (CommonJS, as sandboxed preloads must be) and
 * the sync engine's utility process (ESM, from workers/sync/host.ts) into dist-electron/, with the
 * tray icon. `npm run desktop` runs it; `npm run dist:desktop` packages it (electron-builder.yml).
 * better-sqlite3 is native: it stays a dependency (electron-builder rebuilds it for Electron).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node' as const, target: 'node20', sourcemap: true };
// ESM bundles of CommonJS packages need a `require`.
const requireShim = { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" };

mkdirSync('dist-electron', { recursive: true });
// The server and network build a packaged app opens (the environment still wins at run time).
const baked = {
  'process.env.DRIVE_URL_DEFAULT': JSON.stringify(process.env.DRIVE_URL ?? 'http://localhost:8080'),
  'process.env.NETWORK_ENV_DEFAULT': JSON.stringify(process.env.NETWORK_ENV === 'public' ? 'public' : 'internal'),
};
await build({ ...common, entryPoints: ['electron/main.ts'], format: 'esm', outfile: 'dist-electron/main.js', external: ['electron'], banner: requireShim, define: baked });
await build({ ...common, entryPoints: ['electron/preload.ts'], format: 'cjs', outfile: 'dist-electron/preload.cjs', external: ['electron'] });
await build({ ...common, entryPoints: ['workers/sync/host.ts'], format: 'esm', outfile: 'dist-electron/sync-host.mjs', external: ['better-sqlite3'], banner: requireShim });
copyFileSync('public/icons/icon-192.png', 'dist-electron/tray.png');
console.log('dist-electron/main.js, preload.cjs and sync-host.mjs written');
