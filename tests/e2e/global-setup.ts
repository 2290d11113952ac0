/**
 * Starts the product exactly as a newcomer does, `npm start` (build + one server process), on a free
 * port with a temporary DATA_DIR, and hands its address to the end-to-end tests.
 * DRIVE_TEST_HOOKS=1 makes the server write issued captcha answers to DATA_DIR/test-outbox so the
 * tests can log in through the real captcha.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { API } from '../../common/api/paths';
import { findChromium, CHROMIUM_MISSING_MESSAGE } from '../support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    chromiumPath: string;
  }
}

/** `npm start` builds the web app first; allow for a slow machine. */
const START_TIMEOUT_MS = 170_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const log = readFileSync(logFile, 'utf8');
  throw new Error(`npm start did not come up at ${url}:\n${log.slice(-4000)}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new Error(CHROMIUM_MISSING_MESSAGE);

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'drive-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DRIVE_TEST_HOOKS: '1' },
    detached: true, // own process group: teardown stops npm, the build and the server together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilUp(baseUrl + API.systemConfig, child, logFile);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('chromiumPath', chromiumPath);

  return async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
