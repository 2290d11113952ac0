/**
 * rclone (Debian's) with a WebDAV remote, vendor `other`, against /dav/个人文件/: `copy` of a tree of
 * 2,000 files then `check` clean (bytes compared: --download), then `sync` after edits, renames and
 * deletes, and `check` clean again (nothing missing, nothing extra). Plain WebDAV has no settable
 * modification time, so rclone compares sizes: the edits here change sizes, as real edits mostly do.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rclone, startDavServer, stopDavServer, type DavServer } from '../support/dav-clients';

const FILES = 2000;
const DIRS = 20;

let dav: DavServer;
let local: string;
let conf: string;
const REMOTE = 'dav:个人文件/rclone 树';

/** A tree of FILES small files in DIRS folders (some nested, some odd names), with varied sizes. */
async function makeTree(root: string): Promise<void> {
  for (let d = 0; d < DIRS; d++) {
    const dir = path.join(root, d % 5 === 0 ? `目录 ${d}/深 层` : `dir-${d}`);
    await fsp.mkdir(dir, { recursive: true });
    for (let f = 0; f < FILES / DIRS; f++) {
      const name = f % 10 === 0 ? `文件 ${f} (副本).txt` : `file-${f}.bin`;
      await fsp.writeFile(path.join(dir, name), Buffer.alloc(((d * 131 + f * 17) % 4096) + 1, `${d}:${f};`));
    }
  }
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

beforeAll(async () => {
  dav = await startDavServer('dav-rclone-');
  local = path.join(dav.work, 'local');
  conf = path.join(dav.work, 'rclone');
  await makeTree(local);
});

afterAll(async () => {
  await stopDavServer(dav);
});

describe('rclone', () => {
  it('copies a tree of 2,000 files, and check finds it identical', async () => {
    expect(await listFiles(local)).toHaveLength(FILES);
    const copy = await rclone(dav, ['copy', local, REMOTE, '--transfers', '8', '--checkers', '8', '--stats-one-line', '-q'], conf);
    expect(copy.code, copy.stderr).toBe(0);
    const check = await rclone(dav, ['check', local, REMOTE, '--download', '--checkers', '8'], conf);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toMatch(new RegExp(`${FILES} matching files`));
  }, 300_000);

  it('syncs edits, renames and deletes, and check is clean again', async () => {
    const files = (await listFiles(local)).sort();
    for (const f of files.slice(0, 40)) await fsp.appendFile(path.join(local, f), ' edited');
    for (const f of files.slice(40, 70)) await fsp.rename(path.join(local, f), path.join(local, `${f}.renamed`));
    for (const f of files.slice(70, 100)) await fsp.rm(path.join(local, f));
    await fsp.rm(path.join(local, 'dir-1'), { recursive: true });
    await fsp.mkdir(path.join(local, '新 目录'), { recursive: true });
    await fsp.writeFile(path.join(local, '新 目录', 'new.txt'), 'new');
    const expected = (await listFiles(local)).length;

    const sync = await rclone(dav, ['sync', local, REMOTE, '--transfers', '8', '--checkers', '8', '-q'], conf);
    expect(sync.code, sync.stderr).toBe(0);
    const check = await rclone(dav, ['check', local, REMOTE, '--download', '--checkers', '8'], conf);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toMatch(new RegExp(`${expected} matching files`));
    expect(check.stderr).toMatch(/ 0 differences found/);
    expect(check.stderr).not.toMatch(/not in /);
  }, 300_000);
});
