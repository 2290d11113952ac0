// Must stay the first import: sizes libuv's thread pool before anything starts it.
import './threadpool';
import { buildApp } from './app';
import { configFromEnv } from './config';
import { loadNameRanks } from './storage/name-rank-cache';

/**
 * Entry point of `npm start`. Environment: PORT (8080), HOST (0.0.0.0), DATA_DIR (./data: SQLite file,
 * blobs, upload chunks), STATIC_DIR (./dist: the built web app), DB_URL (unset = SQLite),
 * TRUST_PROXY=1 behind a TLS-terminating proxy, SWEEP_INTERVAL_MS, DRIVE_TEST_HOOKS=1 (tests only),
 * DRIVE_TEST_CRASH_POINT=<point> (crash tests only, needs DRIVE_TEST_HOOKS=1; see CRASH_POINTS).
 */
async function main(): Promise<void> {
  const config = configFromEnv();
  // The name sort key's rank table, before the first key (a migration or the seed may need one) and
  // before listening (not in the first write's answer): read back from DATA_DIR/cache, or ranked (~0.15 s of CPU).
  await loadNameRanks(config.dataDir);
  const app = await buildApp(config);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // close() stops accepting connections, lets requests in flight finish, then closes the database.
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error('server failed to start:', err);
  process.exit(1);
});
