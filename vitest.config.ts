import { defineConfig } from 'vitest/config';

/**
 * Three projects, all run by `npm test`:
 *  - unit: pure logic, the API client, the Dexie queue on fake-indexeddb (Node environment);
 *  - server: integration over real HTTP against a started server with a temp SQLite database;
 *  - integration: the transfer engine (run under Node) against the real server, through a
 *    fault-injecting proxy, across server crashes;
 *  - e2e: playwright-core driving Debian chromium against the server `npm start` runs.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/sync/**/*.test.ts', 'common/**/*.test.ts', 'workers/**/*.test.ts', 'src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          // DRIVE_TEST_DB=pg: one throwaway PostgreSQL for the run (docs/postgresql.md).
          globalSetup: ['tests/support/postgres-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['tests/integration/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/failure-report.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
