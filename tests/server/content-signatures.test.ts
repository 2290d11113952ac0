import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { BatchUploadItem, BatchUploadResponse } from '../../common/transfer/batch-upload';
import { chunkDigestHex } from '../support/chunk-digest';
import { bytesReceived } from './chunk-kit';
import { expectError, names, setBlockedList, storeWhileNothingBlocked } from './file-kit';
import { type Client, postChunkExist, putChunk, randomContent, startServerAsAdmin, TEST_CHUNK_SIZE, type TestServer, uploadFile } from './helpers';
import { secondUpload } from './second-upload-kit';

/**
 * Issue 35 ("Block by content too"): where the tenant blocks executable types (the default list
 * does), programs and scripts recognised by their first bytes — PE, ELF, Mach-O thin and universal,
 * '#!/' scripts — are refused whatever they are called: at the first chunk of an upload, in a second
 * (instant) upload, in a batch of small files and in createTxt. Before, ELF binaries and '#!' scripts
 * uploaded under the default list, and a program named as its own kind (lib.dll, tool.so) always did.
 */
let server: TestServer;
let admin: Client;
let serial = 0;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

const withFiller = (head: Buffer, size: number) => Buffer.concat([head, randomContent(size - head.length)]);

function pe(size = 5000): Buffer {
  const head = Buffer.alloc(0x100);
  head.write('MZ', 0, 'latin1');
  head.writeUInt32LE(0x80, 0x3c);
  head.write('PE\0\0', 0x80, 'latin1');
  return withFiller(head, size);
}
const elf = (size = 5000) => withFiller(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), size);
const machO = (size = 5000) => withFiller(Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), size);
/** A universal (fat) binary with two architectures. */
const universal = (size = 5000) => withFiller(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]), size);
const script = (size = 5000) => withFiller(Buffer.from('#!/usr/bin/env bash\nrm -rf ~/\n'), size);

const EXECUTABLES: Array<[string, (size?: number) => Buffer, string]> = [
  ['an ELF binary', elf, 'report.bin'],
  ['an ELF library named as one', elf, 'libcrypto.so'],
  ['a #! script named as text', script, 'notes.txt'],
  ['a #! script named as one', script, 'deploy.sh'],
  ['a Mach-O program', machO, 'photo.jpg'],
  ['a universal Mach-O binary', universal, 'Installer.app'],
  ['a PE program named as a library', pe, 'helper.dll'],
];

const setBlocked = (list: string[] | null) => setBlockedList(server, list);

describe('executables refused by content under the default blocked list', () => {
  for (const [label, make, base] of EXECUTABLES) {
    it(`${label} (${base}) is refused at its first chunk, with a coded error and a Chinese message`, async () => {
      const name = `${serial++}-${base}`;
      const content = make();
      const open = await postChunkExist(admin, content, name);
      expect(open.status).toBe(200);
      const res = await putChunk(admin, open.body.data.uploadId, 0, content);
      expectError(res, ERRORS.FILE_CONTENT_BLOCKED.code);
      expect(res.body).toMatchObject({ errorMessage: '文件内容为可执行程序或脚本，不允许上传' });
      const merged = await admin.post(API.chunkMerge, { uploadId: open.body.data.uploadId, name, parentId: null, category: 1 });
      expectError(merged, ERRORS.UPLOAD_NOT_FOUND.code);
      expect(await names(admin, null)).not.toContain(name);
    });
  }

  it('a large ELF binary: only its first chunk is read, then the upload is gone', async () => {
    const content = elf(TEST_CHUNK_SIZE * 2 + 1000);
    const name = `big-${serial++}.bin`;
    const open = await postChunkExist(admin, content, name);
    const uploadId = open.body.data.uploadId;
    const before = await bytesReceived(admin);
    expectError(await putChunk(admin, uploadId, 0, content.subarray(0, TEST_CHUNK_SIZE)), ERRORS.FILE_CONTENT_BLOCKED.code);
    expect((await bytesReceived(admin)) - before).toBe(TEST_CHUNK_SIZE);
    expectError(await putChunk(admin, uploadId, 1, content.subarray(TEST_CHUNK_SIZE, 2 * TEST_CHUNK_SIZE)), ERRORS.UPLOAD_NOT_FOUND.code);
  });

  it('a second (instant) upload of stored ELF content is refused after the proof, whatever the new name', async () => {
    const content = elf(6000 + serial++);
    await storeWhileNothingBlocked(server, admin, content, `legacy-${serial++}`);
    const claim = await secondUpload(admin, content, `copy-${serial++}.txt`);
    expectError(claim.answer, ERRORS.FILE_CONTENT_BLOCKED.code);
  });

  it('a batch of small files refuses the executables among them and stores the rest', async () => {
    const files = [
      { name: `plain-${serial++}.txt`, bytes: Buffer.from('just text') },
      { name: `a-${serial++}.txt`, bytes: elf(300) },
      { name: `b-${serial++}.bin`, bytes: universal(300) },
      { name: `c-${serial++}.md`, bytes: script(300) },
      { name: `d-${serial++}.png`, bytes: pe(600) },
    ];
    const items = files.map((f, i): BatchUploadItem => ({ clientKey: `cs${serial}-${i}`, name: f.name, parentId: null, category: 1, size: f.bytes.length, digest: chunkDigestHex(f.bytes) }));
    const json = Buffer.from(JSON.stringify({ items }), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(json.length, 0);
    const res = await admin.raw(API.batchUpload, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(Buffer.concat([length, json, ...files.map((f) => f.bytes)])),
    });
    expect(res.status).toBe(200);
    const { results } = ((await res.json()) as { data: BatchUploadResponse }).data;
    expect(results.map((r) => (r.status === 'created' ? 'created' : r.errorCode))).toEqual([
      'created',
      ERRORS.FILE_CONTENT_BLOCKED.code,
      ERRORS.FILE_CONTENT_BLOCKED.code,
      ERRORS.FILE_CONTENT_BLOCKED.code,
      ERRORS.FILE_CONTENT_BLOCKED.code,
    ]);
  });

  it('createTxt refuses a #! script under any name; text that merely mentions #! is text', async () => {
    expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: `todo-${serial++}.txt`, content: '#!/usr/bin/env python3\nprint(1)' }), ERRORS.FILE_CONTENT_BLOCKED.code);
    expect((await admin.post(API.createTxt, { parentId: null, category: 1, name: `todo-${serial++}.txt`, content: 'see #!/bin/sh below' })).status).toBe(200);
  });
});

describe('names and content compose', () => {
  it('a tenant whose list names no executable type stores programs; the name rule still holds', async () => {
    await setBlocked(['docx']);
    try {
      expect((await uploadFile(admin, elf(), `tool-${serial++}`)).status).toBe(200);
      expect((await admin.post(API.createTxt, { parentId: null, category: 1, name: `run-${serial++}.txt`, content: '#!/bin/sh\necho hi' })).status).toBe(200);
      expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: `r-${serial++}.docx`, content: 'x' }), ERRORS.FILE_TYPE_BLOCKED.code);
    } finally {
      await setBlocked(null);
    }
  });

  it('a rename is judged by the name alone: the verdict on the bytes does not depend on the name', async () => {
    // Stored while nothing was blocked; renaming it brings no new bytes in.
    const stored = await storeWhileNothingBlocked(server, admin, elf(), `tool-${serial++}`);
    expectError(await admin.post(API.rename, { id: stored.id, name: `tool-${serial++}.exe` }), ERRORS.FILE_TYPE_BLOCKED.code);
    expect((await admin.post(API.rename, { id: stored.id, name: `tool-${serial++}.txt` })).status).toBe(200);
    // What the rename could have sneaked in before, a program under its own kind's name, is refused at upload.
    await expect(uploadFile(admin, elf(), `again-${serial++}.so`)).rejects.toThrow(ERRORS.FILE_CONTENT_BLOCKED.code);
  });
});
