import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAV_PAGE_ROWS } from '../../server/dav/dav-tree';
import { fillFolder } from '../bench/lib/big-folder';
import { mkdir } from './file-kit';
import { withDb, type Client, type TestServer } from './helpers';
import { startDav, type DavClient, encodePath } from './dav-kit';

/**
 * PROPFIND of a large folder streams (issue 39): the answer is written as the repository's keyset
 * pages come — chunked, no Content-Length, one HTTP chunk per page — never built whole in memory.
 * (The first-byte figure of a 100k-entry folder is in docs/webdav.md; this checks the shape only.)
 */
const ENTRIES = 5 * DAV_PAGE_ROWS + 123;

let server: TestServer;
let admin: Client;
let dav: DavClient;

beforeAll(async () => {
  ({ server, admin, dav } = await startDav());
  const folder = await mkdir(admin, '大目录');
  await withDb(server, (db) => {
    const owner = db.prepare('select tenant_id, owner_id from files where id = ?').get(folder.id) as { tenant_id: string; owner_id: string };
    fillFolder(db, { id: folder.id, tenantId: owner.tenant_id, ownerId: owner.owner_id, category: 1 }, ENTRIES);
  });
}, 120_000);
afterAll(async () => server?.close());

/** Sends a raw request and returns the head and the sizes of the chunks of a chunked body. */
function rawChunks(request: string): Promise<{ head: string; chunks: number[]; body: string }> {
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(request));
    const parts: Buffer[] = [];
    socket.on('data', (d) => parts.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(parts);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split).toString('latin1');
      const chunks: number[] = [];
      const body: Buffer[] = [];
      let at = split + 4;
      for (;;) {
        const eol = all.indexOf('\r\n', at);
        const size = parseInt(all.subarray(at, eol).toString('latin1'), 16);
        if (!size) break;
        chunks.push(size);
        body.push(all.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      resolve({ head, chunks, body: Buffer.concat(body).toString('utf8') });
    });
  });
}

describe('PROPFIND of a large folder', () => {
  it('streams one chunk per keyset page: chunked, no Content-Length, every entry listed once', async () => {
    const auth = Object.entries(dav.auth).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const { head, chunks, body } = await rawChunks(
      `PROPFIND ${encodePath('/dav/个人文件/大目录/')} HTTP/1.1\r\nHost: 127.0.0.1\r\nDepth: 1\r\n${auth}Connection: close\r\n\r\n`,
    );
    expect(head).toMatch(/^HTTP\/1\.1 207/);
    expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(head.toLowerCase()).not.toContain('content-length');
    const pages = Math.ceil(ENTRIES / DAV_PAGE_ROWS);
    // The opening, the folder itself, each page, the closing: written as they came.
    expect(chunks.length).toBeGreaterThanOrEqual(pages + 2);
    expect(body.match(/<D:response>/g)!.length).toBe(ENTRIES + 1);
    expect(new Set(body.match(/<D:href>[^<]+<\/D:href>/g)).size).toBe(ENTRIES + 1);
    expect(body.trimEnd().endsWith('</D:multistatus>')).toBe(true);
  });
});
