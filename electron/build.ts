/**
 * Bundles the Electron main process (ESM) and preload (CommonJS, as sandboxed preloads must be)
 * into dist-electron/. `npm run desktop` runs it; Electron's binary is fetched on its first run.
 */
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node' as const, target: 'node20', external: ['electron'], sourcemap: true };

await build({ ...common, entryPoints: ['electron/main.ts'], format: 'esm', outfile: 'dist-electron/main.js' });
await build({ ...common, entryPoints: ['electron/preload.ts'], format: 'cjs', outfile: 'dist-electron/preload.cjs' });
console.log('dist-electron/main.js and dist-electron/preload.cjs written');
