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
import { API } from '../../common/api/paths';
import { findChromium, CHROMIUM_MISSING_MESSAGE } from '../support/chromium';
import { loggedInJar } from '../support/drive-server';
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
  await crowdAdminRoot(baseUrl, dataDir, Number(process.env.E2E_CROWD ?? 0));

  return async () => {
    await server.stop();
    const findings = serverLogFindings(logFile);
    if (findings.length > 0) console.warn(`e2e server log, what went wrong (${findings.length}):\n  ${findings.join('\n  ')}`);
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * E2E_CROWD=<n>: before any test, n folders in the admin's 个人文件 that sort above every other entry
 * ('000 拥挤 …') and n top-level departments made before any other ('000 拥挤部 …'), as the entries of the files that ran before leave it in the full stage. A test that
 * looks for a row of the admin's root without scrolling to it (revealFileRow) fails this way when run
 * alone, instead of only in the full stage, in whatever order vitest picks (docs/testing.md).
 */
async function crowdAdminRoot(baseUrl: string, dataDir: string, folders: number): Promise<void> {
  if (!(folders > 0)) return;
  const admin = await loggedInJar(baseUrl, dataDir);
  for (let i = 0; i < folders; i++) {
    const res = await admin.fetch(baseUrl + API.mkdir, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
      body: JSON.stringify({ parentId: null, category: 1, name: `000 拥挤 ${String(i).padStart(3, '0')}` }),
    });
    if (res.status !== 200) throw new Error(`E2E_CROWD: mkdir answered ${res.status}`);
    // As many top-level departments, made first, so a file's own departments sort below them in the
    // tree (a phone's tree shows about five rows).
    const dept = await admin.fetch(baseUrl + API.departmentCreate, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Platform': 'web', 'X-Network-Env': 'internal' },
      body: JSON.stringify({ parentId: null, name: `000 拥挤部 ${String(i).padStart(3, '0')}` }),
    });
    if (dept.status !== 200) throw new Error(`E2E_CROWD: department create answered ${dept.status}`);
  }
}
