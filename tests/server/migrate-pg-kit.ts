/**
 * For migrate-pg.test.ts: a real SQLite installation built by the real server through its API, a
 * throwaway PostgreSQL cluster (or the one DRIVE_TEST_PG_URL names), and `npm run migrate:pg` as a
 * child process (bundled once by esbuild with support/server-bundle.ts, as the server is: tsx would spend
 * seconds of CPU per start on a busy machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { API } from '../../common/api/paths';
import { startPostgresCluster } from '../support/postgres';
import { nodeBundle } from '../support/server-bundle';
import { PG_BASE_ENV } from '../support/test-database';
import { mkdir, text } from './file-kit';
import { ADMIN, liftPasswordGate, loggedInClient, startServer, uploadFile } from './helpers';
import { addUser, createDepartment, INITIAL_PASSWORD } from './org-kit';
import { link, share } from './sharing-kit';

const ROOT = path.resolve(__dirname, '../..');

export interface Installation {
  dataDir: string;
  /** What the migrated server must still serve. */
  folderId: string;
  folders: number;
  upload: { id: string; sha256: string };
  textFile: { id: string; content: string };
  member: { username: string; password: string };
  link: { token: string; code: string | null };
}

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/**
 * Admin adds a department and a member, makes a folder of `folders` subfolders, uploads a binary
 * file, writes a text file, shares the folder with the member, creates a link and trashes a file;
 * the member logs in. The server is then closed (its data kept).
 */
export async function buildInstallation(folders: number): Promise<Installation> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-migrate-src-'));
  const server = await startServer({ dataDir, dbUrl: undefined });
  try {
    const admin = await loggedInClient(server, ADMIN);
    const dept = await createDepartment(admin, '研发部');
    const member = { username: 'mover', password: INITIAL_PASSWORD };
    await addUser(admin, member.username, dept.id);
    await liftPasswordGate(server, member.username);
    const folder = await mkdir(admin, '迁移资料');
    for (let i = 0; i < folders; i++) await mkdir(admin, `子目录 ${i}`, folder.id);
    const bytes = randomBytes(300 * 1024);
    const up = await uploadFile(admin, bytes, 'data.bin', { parentId: folder.id });
    if (up.status !== 200) throw new Error(`upload: ${JSON.stringify(up.body)}`);
    const content = '迁移前写下的文字\n';
    const textFile = await text(admin, '说明.txt', content, folder.id);
    const doomed = await text(admin, 'trash.txt', 'x', folder.id);
    const removed = await admin.post(API.removeFiles, { ids: [doomed.id] });
    if (removed.status !== 200) throw new Error(`remove: ${JSON.stringify(removed.body)}`);
    await loggedInClient(server, member);
    const memberId = await userId(dataDir, member.username);
    await share(admin, [folder.id], [{ type: 'user', id: memberId }]);
    const made = await link(admin, textFile.id);
    return {
      dataDir,
      folderId: folder.id,
      folders,
      upload: { id: up.body.data.id, sha256: sha(bytes) },
      textFile: { id: textFile.id, content },
      member,
      link: { token: made.token, code: made.code },
    };
  } finally {
    await server.app.close();
  }
}

async function userId(dataDir: string, username: string): Promise<string> {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(path.join(dataDir, 'drive.sqlite'), { readonly: true });
  try {
    return (db.prepare('select id from users where username = ?').get(username) as { id: string }).id;
  } finally {
    db.close();
  }
}

/** A PostgreSQL cluster whose databases the tests create: the run's (DRIVE_TEST_PG_URL) or a throwaway one. */
export async function postgresForTests(): Promise<{ database(): Promise<string>; stop(): Promise<void> }> {
  const given = process.env[PG_BASE_ENV];
  const cluster = given ? null : await startPostgresCluster({ maxConnections: 100 });
  const base = given ? (given.endsWith('/') ? given : `${given}/`) : cluster!.url('');
  const made: string[] = [];
  const admin = <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => withPg(`${base}postgres`, fn);
  return {
    async database() {
      const name = `migrate_${randomBytes(6).toString('hex')}`;
      await admin((c) => c.query(`create database ${name}`));
      made.push(name);
      return base + name;
    },
    async stop() {
      if (cluster) return cluster.stop();
      await admin(async (c) => {
        for (const name of made) await c.query(`drop database if exists ${name} with (force)`);
      });
    },
  };
}

function cliBundle(): Promise<string> {
  return nodeBundle('server/migrate-pg/cli.ts');
}

export interface ToolRun {
  child: ChildProcess;
  /** Exit code (null when killed by a signal), stdout and stderr once it ended. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `migrate:pg` with these arguments. */
export async function runTool(args: string[]): Promise<ToolRun> {
  const child = spawn(process.execPath, [await cliBundle(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AUDIT_CHAIN_KEY: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Rows the run recorded as copied so far (0 before its progress table exists). */
export async function copiedSoFar(url: string): Promise<{ copied: number; tablesDone: number; tables: number }> {
  return withPg(url, async (c) => {
    try {
      const res = await c.query<{ copied: string; done: string; n: string }>(
        'select coalesce(sum(rows_copied), 0) as copied, coalesce(sum(done), 0) as done, count(*) as n from migrate_pg_progress',
      );
      const r = res.rows[0]!;
      return { copied: Number(r.copied), tablesDone: Number(r.done), tables: Number(r.n) };
    } catch (err) {
      if ((err as { code?: string }).code === '42P01') return { copied: 0, tablesDone: 0, tables: 0 };
      throw err;
    }
  });
}
