import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { ClientVersion } from '../../common/api/types';
import { INSTALLER_TEXT, type FetchLike } from '../../electron/installer-download';
import { createUpdateDriver, type DialogAnswer } from '../../electron/update-driver';
import { UPDATE_TEXT, type UpdateState } from '../../electron/update-flow';
import { ADMIN, Client, loggedInClient, startServer, uploadFile, type TestServer } from './helpers';

/**
 * The desktop's update flow (electron/update-driver.ts, Electron left out) against the real server
 * (issue 38): it asks `clientVersion/get` for its own client type, offers 发现新版本 with the
 * description, downloads the installer the admin uploaded — with progress, resuming a part, checking
 * size and content fingerprint — and hands it to the installer; a forced release cannot be skipped.
 */
let server: TestServer;
let admin: Client;
let work: string;
const PUBLIC_BYTES = randomBytes(3 * 1024 * 1024 + 12_345);
const INTERNAL_BYTES = randomBytes(200_000);

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  work = await mkdtemp(path.join(tmpdir(), 'desktop-update-'));
});
afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

async function release(clientType: 3 | 4, versionName: string, isForce: boolean, bytes: Buffer | null, name = `setup-${versionName}.AppImage`) {
  const fileId = bytes ? (await uploadFile(admin, bytes, name, { onConflict: 'rename' })).body.data.id : null;
  const res = await admin.post(API.clientReleaseSave, { clientType, versionName, versionDesc: `版本 ${versionName}：修复同步问题`, isForce, fileId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return fileId;
}

interface Run {
  dialogs: Array<{ kind: UpdateState['kind']; text: string }>;
  installed: string | null;
  percents: number[];
  final: UpdateState;
}

/**
 * Runs one flow from start until it rests (idle again, or the installer handed over). `answer` decides
 * each dialog (default: yes to everything).
 */
function runFlow(o: { networkEnv: 'internal' | 'public'; current?: string; manual?: boolean; dir?: string; fetch?: FetchLike; answer?: (state: UpdateState, seen: number) => DialogAnswer | Promise<DialogAnswer> }): Promise<Run> {
  const run: Run = { dialogs: [], installed: null, percents: [], final: { kind: 'idle' } };
  let left = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`flow did not rest: ${JSON.stringify(run.dialogs)}`)), 20_000);
    const done = () => {
      clearTimeout(timer);
      run.final = driver.state();
      resolve(run);
    };
    const driver = createUpdateDriver({
      appUrl: server.baseUrl,
      networkEnv: o.networkEnv,
      currentVersion: o.current ?? '1.0.0',
      fetch: o.fetch ?? ((url, init) => fetch(url, init)),
      downloadDir: o.dir ?? path.join(work, randomBytes(4).toString('hex')),
      install: async (file) => {
        run.installed = file;
        done();
      },
      async show(state) {
        if (state.kind === 'downloading') return null;
        const text = 'release' in state ? textOf(state) : state.kind === 'failed' ? `${UPDATE_TEXT.checkFailed}：${state.message}` : UPDATE_TEXT.upToDate;
        run.dialogs.push({ kind: state.kind, text });
        if (state.kind === 'failed' || state.kind === 'upToDate') return 'dismissed';
        return (await o.answer?.(state, run.dialogs.length)) ?? 'accept';
      },
      onState(state) {
        if (state.kind === 'downloading') run.percents.push(state.percent);
        // Every flow leaves idle at its start (fetching); back to idle, it rests.
        if (state.kind !== 'idle') left = true;
        else if (left) done();
      },
    });
    driver.start(o.manual ?? false);
  });
}

function textOf(state: Extract<UpdateState, { release: unknown }>): string {
  const r = state.release;
  switch (state.kind) {
    case 'askCheck':
      return `${UPDATE_TEXT.askCheck(r)} ${r.versionDesc}`;
    case 'forcedPrompt':
      return `${UPDATE_TEXT.forced(r)} ${r.versionDesc}`;
    case 'askDownload':
      return UPDATE_TEXT.askDownload(r);
    case 'askInstall':
      return UPDATE_TEXT.askInstall(r);
    case 'downloadFailed':
      return `${UPDATE_TEXT.downloadFailed}：${state.message}`;
    default:
      return state.kind;
  }
}

describe('desktop update flow against the server', () => {
  it('nothing published: a start stays quiet, 检查更新 by hand says it is up to date', async () => {
    expect((await runFlow({ networkEnv: 'internal' })).dialogs).toEqual([]);
    expect((await runFlow({ networkEnv: 'internal', manual: true })).dialogs.map((d) => d.kind)).toEqual(['upToDate']);
  });

  it('not forced (public build, type 4): 发现新版本 with the description, then download with progress, then install the exact bytes', async () => {
    await release(4, '2.0.0', false, PUBLIC_BYTES, 'drive-setup-2.0.0.AppImage');
    const run = await runFlow({ networkEnv: 'public' });
    expect(run.dialogs.map((d) => d.kind)).toEqual(['askCheck', 'askDownload', 'askInstall']);
    expect(run.dialogs[0]!.text).toBe('发现新版本 2.0.0，是否检查更新？ 版本 2.0.0：修复同步问题');
    expect(path.basename(run.installed!)).toBe('drive-setup-2.0.0.AppImage');
    expect((await readFile(run.installed!)).equals(PUBLIC_BYTES)).toBe(true);
    expect(run.percents.at(-1)).toBe(100);
    expect(run.percents.length).toBeGreaterThan(2);
    // The internal build (type 3) is not offered the public build's release.
    expect((await runFlow({ networkEnv: 'internal' })).dialogs).toEqual([]);
    // Already this version: nothing to do.
    expect((await runFlow({ networkEnv: 'public', current: '2.0.0' })).dialogs).toEqual([]);
  });

  it('not forced: every "no" ends the flow and installs nothing', async () => {
    for (const no of ['askCheck', 'askDownload', 'askInstall'] as const) {
      const run = await runFlow({ networkEnv: 'public', answer: (s) => (s.kind === no ? 'decline' : 'accept') });
      expect(run.dialogs.at(-1)!.kind).toBe(no);
      expect([run.installed, run.final.kind]).toEqual([null, 'idle']);
    }
  });

  it('forced (internal build, type 3): the prompt cannot be dismissed, then it downloads and installs without asking again', async () => {
    await release(3, '3.1.0', true, INTERNAL_BYTES);
    const run = await runFlow({ networkEnv: 'internal', answer: (s, seen) => (s.kind === 'forcedPrompt' && seen < 3 ? 'decline' : 'accept') });
    expect(run.dialogs.map((d) => d.kind)).toEqual(['forcedPrompt', 'forcedPrompt', 'forcedPrompt']);
    expect(run.dialogs[0]!.text).toBe('发现新版本 3.1.0，必须更新后才能继续使用 版本 3.1.0：修复同步问题');
    expect((await readFile(run.installed!)).equals(INTERNAL_BYTES)).toBe(true);
  });

  it('bytes damaged in transit fail the content check (the part is deleted); 重试 downloads it clean', async () => {
    const dir = path.join(work, 'damaged');
    let damage = true;
    const damaging: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (!damage || !url.includes(API.clientInstaller) || init?.headers?.range === 'bytes=0-0') return res;
      damage = false;
      const body = Buffer.from(await res.arrayBuffer());
      const middle = body.length >> 1;
      body[middle] = body[middle]! ^ 0xff;
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const run = await runFlow({ networkEnv: 'public', dir, fetch: damaging });
    expect(run.dialogs.map((d) => d.kind)).toEqual(['askCheck', 'askDownload', 'downloadFailed', 'askInstall']);
    expect(run.dialogs[2]!.text).toBe(`${UPDATE_TEXT.downloadFailed}：${INSTALLER_TEXT.digestMismatch}`);
    expect((await readFile(run.installed!)).equals(PUBLIC_BYTES)).toBe(true);
  });

  it('a part left by a cut download is resumed with a Range request, not fetched again', async () => {
    const dir = path.join(work, 'resume');
    await mkdir(path.join(dir, '2.0.0'), { recursive: true });
    const have = 2 * 1024 * 1024;
    await writeFile(path.join(dir, '2.0.0', 'drive-setup-2.0.0.AppImage.part'), PUBLIC_BYTES.subarray(0, have));
    const asked: string[] = [];
    let received = 0;
    const counting: FetchLike = async (url, init) => {
      const res = await fetch(url, init);
      if (url.includes(API.clientInstaller) && init?.headers?.range !== 'bytes=0-0') {
        asked.push(init?.headers?.range ?? 'all');
        const body = Buffer.from(await res.arrayBuffer());
        received += body.length;
        return new Response(body, { status: res.status, headers: res.headers });
      }
      return res;
    };
    const run = await runFlow({ networkEnv: 'public', dir, fetch: counting });
    expect(asked).toEqual([`bytes=${have}-`]);
    expect(received).toBe(PUBLIC_BYTES.length - have);
    expect((await readFile(run.installed!)).equals(PUBLIC_BYTES)).toBe(true);
    expect(await readdir(path.join(dir, '2.0.0'))).toEqual(['drive-setup-2.0.0.AppImage']);
  });

  it('an installer withdrawn after the prompt: the check says 更新文件不存在', async () => {
    const version = (await new Client(server.baseUrl).get<{ data: ClientVersion }>(`${API.clientVersion}?clientType=4`)).body.data;
    const fileId = (await admin.get<{ data: Array<{ clientType: number; file: { id: string } | null }> }>(API.clientReleaseList)).body.data.find((r) => r.clientType === 4)!.file!.id;
    expect(version.installer).toBeDefined();
    const run = await runFlow({
      networkEnv: 'public',
      answer: async (s): Promise<DialogAnswer> => {
        if (s.kind === 'askCheck') expect((await admin.post(API.removeFiles, { ids: [fileId] })).status).toBe(200);
        return 'accept';
      },
    });
    expect(run.dialogs.map((d) => d.text)).toEqual([expect.stringContaining('发现新版本 2.0.0'), `${UPDATE_TEXT.checkFailed}：更新文件不存在`]);
    expect(run.installed).toBeNull();
  });
});
