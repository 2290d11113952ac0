/**
 * The desktop updater's source (spec §1): the release the server offers names where its files are,
 * and the server serves them (electron-updater's generic provider) to anyone, with Range.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ClientVersion } from '../../common/api/types';
import { Client, startServer, type TestServer } from './helpers';

let server: TestServer;
let releases: string;

beforeAll(async () => {
  releases = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-releases-'));
  await fsp.writeFile(path.join(releases, 'latest.yml'), 'version: 1.3.0\nfiles:\n  - url: 企业云盘-Setup-1.3.0.exe\n');
  await fsp.writeFile(path.join(releases, '企业云盘-Setup-1.3.0.exe'), Buffer.alloc(4096, 7));
  server = await startServer({
    desktopRelease: { versionName: '1.3.0', versionDesc: '修复同步问题', isForce: true, updateUrl: '/desktop/releases/' },
    desktopReleaseDir: releases,
  });
});

afterAll(async () => {
  await server?.close();
  await fsp.rm(releases, { recursive: true, force: true });
});

describe('desktop release', () => {
  it('is offered to client types 3 and 4 with its update folder, and its files are served without a session', async () => {
    const anonymous = new Client(server.baseUrl);
    for (const clientType of [3, 4]) {
      const offer = await anonymous.get<{ data: ClientVersion }>(`${API.clientVersion}?clientType=${clientType}`);
      expect(offer.body.data).toEqual({ versionName: '1.3.0', versionDesc: '修复同步问题', isForce: true, updateUrl: '/desktop/releases/' });
    }
    const yml = await anonymous.raw('/desktop/releases/latest.yml');
    expect(yml.status).toBe(200);
    expect(await yml.text()).toContain('version: 1.3.0');
    const part = await anonymous.raw(`/desktop/releases/${encodeURIComponent('企业云盘-Setup-1.3.0.exe')}`, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    expect((await anonymous.raw('/desktop/releases/%2e%2e/%2e%2e/etc/passwd')).status).not.toBe(200);
  });
});
