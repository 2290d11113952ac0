/**
 * How the sync engine's process is started (the headless command's npm script, Electron's utility
 * process, the bench): a small young generation and a heap limit keep V8 from letting garbage pile
 * up far past what is live, and `--expose-gc` lets a pass collect between its phases (workers/sync/pass.ts).
 * Measured on 100,000 files (bench `sync`): peak RSS 290–355 MB without, ~200–215 MB with.
 * The live data is ~1 KB per synced file at the peak: the default limit holds ~400,000 files;
 * SYNC_HEAP_MB raises it for larger trees.
 */
export const DEFAULT_SYNC_HEAP_MB = 512;

export function syncEngineFlags(env: Record<string, string | undefined> = {}): string[] {
  const heap = Number(env.SYNC_HEAP_MB) > 0 ? Math.round(Number(env.SYNC_HEAP_MB)) : DEFAULT_SYNC_HEAP_MB;
  return ['--expose-gc', '--max-semi-space-size=1', `--max-old-space-size=${heap}`];
}
