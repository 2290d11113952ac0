import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { text } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer, withDb } from './helpers';

/**
 * The text store of search inside files (content-text-service.ts): one text per blob, replaced in
 * place, gone with its blob whichever path deletes the blob row (the foreign key's cascade).
 */
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => server?.close());

const blobOf = async (fileId: string): Promise<string> =>
  withDb(server, (db) => (db.prepare('select blob_id from files where id = ?').get(fileId) as { blob_id: string }).blob_id);

describe('content text store', () => {
  it('stores a text per blob, replaces it, and reports it', async () => {
    const file = await text(admin, 'store-a.txt', 'alpha');
    const blobId = await blobOf(file.id);
    expect(await server.app.contentTexts.hasText(blobId)).toBe(false);
    const first = await server.app.contentTexts.putText(blobId, { text: 'first\fsecond page', pageStarts: [0, 6] });
    expect(first).toMatchObject({ stored: true, chars: 17, truncated: false });
    expect(await server.app.contentTexts.hasText(blobId)).toBe(true);
    await server.app.contentTexts.putText(blobId, { text: 'replaced \u0000 text' });
    const rows = await withDb(server, (db) => db.prepare('select body, page_starts from blob_texts where blob_id = ?').all(blobId) as Array<{ body: string; page_starts: string | null }>);
    expect(rows).toEqual([{ body: 'replaced   text', page_starts: null }]);
  });

  it('answers stored: false for a blob that does not exist', async () => {
    expect(await server.app.contentTexts.putText('no-such-blob', { text: 'x' })).toMatchObject({ stored: false });
  });

  it('removeBlob drops the text', async () => {
    const file = await text(admin, 'store-b.txt', 'bravo');
    const blobId = await blobOf(file.id);
    await server.app.contentTexts.putText(blobId, { text: 'bravo text' });
    await server.app.contentTexts.removeBlob(blobId);
    expect(await server.app.contentTexts.hasText(blobId)).toBe(false);
  });

  it('the text goes with its blob when the file is purged from the recycle bin', async () => {
    const file = await text(admin, 'store-c.txt', 'charlie');
    const blobId = await blobOf(file.id);
    await server.app.contentTexts.putText(blobId, { text: 'charlie text 合同' });
    expect((await admin.post(API.removeFiles, { ids: [file.id] })).status).toBe(200);
    expect((await admin.post(API.recyclePurge, { ids: [file.id] })).status).toBe(200);
    expect(await withDb(server, (db) => db.prepare('select count(*) as n from blobs where id = ?').get(blobId))).toEqual({ n: 0 });
    expect(await server.app.contentTexts.hasText(blobId)).toBe(false);
  });
});
