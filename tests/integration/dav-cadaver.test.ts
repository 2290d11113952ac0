/**
 * A scripted cadaver session (Debian's command-line WebDAV client, credentials from ~/.netrc in a
 * temp HOME) against /dav/个人文件/: mkcol, put, get, move, lock, unlock — each step's own report
 * read, and the outcome checked over plain HTTP afterwards (content, place, no lock left).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCadaver, startDavServer, stopDavServer, type DavServer } from '../support/dav-clients';

let dav: DavServer;

beforeAll(async () => {
  dav = await startDavServer('dav-cadaver-');
});

afterAll(async () => {
  await stopDavServer(dav);
});

const auth = () => ({ authorization: `Basic ${Buffer.from(`${dav.user}:${dav.password}`).toString('base64')}` });

describe('cadaver', () => {
  it('puts, gets, makes a folder, moves, locks and unlocks', async () => {
    const cwd = path.join(dav.work, 'cadaver');
    await fsp.mkdir(cwd, { recursive: true });
    const content = `你好 cadaver ${Date.now()}\n`;
    await fsp.writeFile(path.join(cwd, 'hello.txt'), content);
    const script = [
      'mkcol cadaver测试',
      'cd cadaver测试',
      'put hello.txt hello.txt',
      'get hello.txt back.txt',
      'mkcol sub',
      'move hello.txt sub/moved.txt',
      'lock sub/moved.txt',
      'unlock sub/moved.txt',
      'ls sub',
      'quit',
      '',
    ].join('\n');
    const r = await runCadaver(dav, dav.url('个人文件/'), script, cwd);
    const out = r.stdout + r.stderr;
    expect(r.code, out).toBe(0);
    expect(out).not.toMatch(/failed/i);
    for (const step of [/Creating `cadaver测试': succeeded/, /Uploading hello\.txt to .* succeeded/, /Downloading .*hello\.txt.* succeeded/, /Creating `sub': succeeded/, /Moving .* succeeded/, /Locking `sub\/moved\.txt': succeeded/, /Unlocking `sub\/moved\.txt': succeeded/]) {
      expect(out, String(step)).toMatch(step);
    }
    expect(out).toMatch(/moved\.txt/);
    expect(await fsp.readFile(path.join(cwd, 'back.txt'), 'utf8')).toBe(content);

    // Over HTTP: the file is where it was moved, with its bytes, and no lock is left on it.
    const moved = await fetch(dav.url('个人文件/cadaver测试/sub/moved.txt'), { headers: auth() });
    expect(moved.status).toBe(200);
    expect(await moved.text()).toBe(content);
    expect((await fetch(dav.url('个人文件/cadaver测试/hello.txt'), { headers: auth() })).status).toBe(404);
    const props = await fetch(dav.url('个人文件/cadaver测试/sub/moved.txt'), {
      method: 'PROPFIND',
      headers: { ...auth(), depth: '0', 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:lockdiscovery/></D:prop></D:propfind>',
    });
    expect(props.status).toBe(207);
    expect(await props.text()).not.toContain('activelock');
  });
});
