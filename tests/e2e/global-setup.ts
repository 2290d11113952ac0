/**
 * Starts the product exactly as a newcomer does, `npm start` (build + one server process), on a free
 * port with a temporary DATA_DIR, and hands its address to the end-to-end tests.
 * DRIVE_TEST_HOOKS=1 makes the server write issued captcha answers to DATA_DIR/test-outbox so the
 * tests can log in through the real captcha.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium, CHROMIUM_MISSING_MESSAGE } from '../support/chromium';
import { startNpmStart } from '../support/npm-start';
import { serverLogFindings } from './server-log-findings';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new Error(CHROMIUM_MISSING_MESSAGE);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'drive-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const server = await startNpmStart({ DATA_DIR: dataDir, DRIVE_TEST_HOOKS: '1' }, logFile);
  const baseUrl = server.baseUrl;
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('chromiumPath', chromiumPath);

  return async () => {
    await server.stop();
    const findings = serverLogFindings(logFile);
    if (findings.length > 0) console.warn(`e2e server log, what went wrong (${findings.length}):\n  ${findings.join('\n  ')}`);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
