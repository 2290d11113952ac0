/**
 * The database's disk fills (issue 36, "Faults"): the `drive` database lives in a tablespace on a small
 * tmpfs (mounted here: the test runs as root, or is skipped), two server processes behind haproxy.
 * The disk is filled to the last byte while users keep writing (uploads, new folders, text files).
 * What must hold: every write the server acknowledged is intact afterwards, every refused one was
 * answered with a coded error carrying a Chinese message, no server process dies, writes work again
 * once space is freed, and the action-log chains verify.
 *
 * (PostgreSQL's WAL stays on the main disk here: a full WAL disk makes PostgreSQL itself stop and
 * restart, which the PostgreSQL restart faults cover from the server's side.)
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { downloadUrl } from '../../common/api/paths';
import type { Cluster } from '../../server/cluster/start-cluster';
import { startPostgresCluster, type PostgresCluster } from '../../server/cluster/postgres-cluster';
import { ADMIN, Client, login, uploadFile, type TestServer } from '../server/helpers';
import { entries } from '../server/file-kit';
import { API } from '../../common/api/paths';
import { startTestCluster, storeProblems, withPg } from './cluster-kit';
import { auditVerify } from './cluster-fault-kit';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;
let dir: string;
let space: string;
let mounted = false;
let dataDir: string;
let postgres: PostgresCluster;
let cluster: Cluster;
let log: string[];
let admin: Client;

beforeAll(async () => {
  if (!asRoot) return;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-disk-full-'));
  await fsp.chmod(dir, 0o755);
  space = path.join(dir, 'space');
  dataDir = path.join(dir, 'data');
  await fsp.mkdir(space);
  await run('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', space]);
  mounted = true;
  await run('chown', ['postgres:', space]);
  postgres = await startPostgresCluster();
  await withPg(postgres.url('postgres'), async (c) => {
    await c.query(`create tablespace small location '${space}'`);
    await c.query('create database drive tablespace small');
  });
  ({ cluster, log } = await startTestCluster(dataDir, { processes: 2, dbUrl: postgres.url('drive') }));
  admin = new Client(cluster.url);
  expect((await login({ dataDir } as TestServer, admin, ADMIN)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  await postgres?.stop();
  if (mounted) await run('umount', ['-l', space]);
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

afterAll(() => {
  if (log?.some((l) => /"level":60/.test(l))) console.warn(log.filter((l) => /"level":60|cluster\]/.test(l)).slice(-40).join('\n'));
});

/** Writes zeros into the tmpfs until it has no byte left. */
async function fillDisk(): Promise<string> {
  const filler = path.join(space, 'filler');
  const handle = await fsp.open(filler, 'w');
  const block = Buffer.alloc(1024 * 1024);
  try {
    for (let size = block.length; size >= 512; ) {
      try {
        await handle.write(block.subarray(0, size));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        size = size / 2;
      }
    }
  } finally {
    await handle.close();
  }
  return filler;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const CHINESE = /[\u4e00-\u9fff]/;

interface Write {
  what: string;
  status: number;
  body: { errorCode?: string; errorMessage?: string; message?: string; data?: { id?: string } } | undefined;
  check?: () => Promise<void>;
}

/** One user's writes: a small upload through the chunk protocol, a folder, a text file. */
async function writes(round: number): Promise<Write[]> {
  const bytes = randomBytes(200_000 + round);
  const up = await uploadFile(admin, bytes, `满盘-${round}.bin`);
  const folder = await admin.post<{ data: { id: string } }>(API.mkdir, { parentId: null, category: 1, name: `文件夹-${round}` });
  const txt = await admin.post<{ data: { status: string; file?: { id: string } } }>(API.createTxt, { parentId: null, category: 1, name: `笔记-${round}.txt`, content: `第 ${round} 条` });
  return [
    {
      what: `upload ${round}`,
      status: up.status,
      body: up.body as Write['body'],
      check: async () => {
        const got = await admin.raw(downloadUrl((up.body as { data: { id: string } }).data.id));
        expect(sha(Buffer.from(await got.arrayBuffer())), `upload ${round}`).toBe(sha(bytes));
      },
    },
    { what: `mkdir ${round}`, status: folder.status, body: folder.body as Write['body'] },
    { what: `createTxt ${round}`, status: txt.status, body: txt.body as Write['body'] },
  ];
}

describe.runIf(asRoot)("the database's disk fills", () => {
  it('writes while full are acknowledged and intact, or refused with a coded Chinese error; freed, everything works again; the chain verifies', async () => {
    const pids = cluster.pids();
    const before = await writes(0);
    expect(before.map((w) => w.status)).toEqual([200, 200, 200]);
    const filler = await fillDisk();
    const during: Write[] = [];
    // Writes fill what free room the tables' pages still had; then the database refuses.
    const refused = (): Write[] => during.filter((w) => w.status !== 200);
    for (let round = 1; round <= 40 && (refused().length < 6 || !refused().some((r) => r.what.startsWith('upload'))); round++) during.push(...(await writes(round)));
    console.info(`writes while full: ${during.length}, refused: ${refused().length} (${[...new Set(refused().map((r) => `${r.what.split(' ')[0]} ${r.status} ${r.body?.errorCode}`))].join(', ')})`);
    expect(refused().some((r) => r.what.startsWith('upload')), 'an upload refused').toBe(true);
    expect(refused().filter((r) => r.body?.errorCode === ERRORS.DATABASE_FULL.code).length, 'refused as the full disk').toBeGreaterThan(0);
    for (const r of refused()) {
      expect(r.body?.errorCode, `${r.what}: ${JSON.stringify(r.body)}`).toMatch(/\S/);
      expect(r.body?.errorMessage ?? r.body?.message, `${r.what}: ${JSON.stringify(r.body)}`).toMatch(CHINESE);
    }
    expect(cluster.pids(), 'no server process died').toEqual(pids);

    await fsp.rm(filler);
    const after = await writes(100);
    expect(after.map((w) => `${w.what} ${w.status} ${w.body?.errorCode ?? ''}`)).toEqual(after.map((w) => `${w.what} 200 `));
    // Everything acknowledged, before, during and after, is there.
    const acknowledged = [...before, ...during, ...after].filter((w) => w.status === 200);
    for (const w of acknowledged) await w.check?.();
    const listed = new Set((await entries(admin, null)).map((e) => e.name));
    for (const w of acknowledged.filter((x) => !x.what.startsWith('upload'))) {
      const round = w.what.split(' ')[1];
      expect(listed.has(w.what.startsWith('mkdir') ? `文件夹-${round}` : `笔记-${round}.txt`), w.what).toBe(true);
    }
    expect(await storeProblems(dataDir, cluster.dbUrl)).toEqual([]);
    const chains = await auditVerify(cluster, dataDir);
    expect(chains.length).toBeGreaterThan(0);
    expect(chains.filter((c) => c.broken)).toEqual([]);
  }, 90_000);
});
