import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { expectError, mkdir, names, storeWhileNothingBlocked, text } from './file-kit';
import { type Client, describeFile, randomContent, startServerAsAdmin, uploadFile, type TestServer } from './helpers';
import { secondUpload } from './second-upload-kit';

/**
 * Issue 19: one name rule (common/validation/names.ts) wherever a name enters, and the tenant's
 * blocked types judged on the stored name and, where the bytes are at hand, on their first bytes.
 * The demo tenant blocks the defaults (exe, bat, cmd, com, scr, vbs, msi, ps1).
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

/** A PE executable's head (the MZ stub pointing at 'PE\0\0'), then filler. */
function peBytes(): Buffer {
  const head = Buffer.alloc(0x100);
  head.write('MZ', 0, 'latin1');
  head.writeUInt32LE(0x80, 0x3c);
  head.write('PE\0\0', 0x80, 'latin1');
  return Buffer.concat([head, randomContent(4096 + serial++)]);
}

const BAD_NAMES: Array<[string, string, string]> = [
  ['a trailing dot', 'setup.exe.', ERRORS.NAME_TRAILING_DOT.code],
  ['a zero-width space', 'setup.exe\u200B', ERRORS.NAME_INVISIBLE_CHARS.code],
  ['a right-to-left override', 'invoice\u202Efdp.exe', ERRORS.NAME_INVISIBLE_CHARS.code],
  ['a C1 control', 'a\u0085b.txt', ERRORS.NAME_INVISIBLE_CHARS.code],
  ['a Windows device name', 'nul.txt', ERRORS.NAME_RESERVED.code],
  ['a Windows device name with a digit', 'COM1.txt', ERRORS.NAME_RESERVED.code],
];

describe('one name rule wherever a name enters', () => {
  for (const [label, name, code] of BAD_NAMES) {
    it(`refuses ${label} on mkdir, rename, createTxt, upload and second upload`, async () => {
      expectError(await admin.post(API.mkdir, { parentId: null, category: 1, name }), code);
      const file = await text(admin, `ok-${serial++}.txt`, 'x');
      expectError(await admin.post(API.rename, { id: file.id, name }), code);
      expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name, content: 'x' }), code);
      const content = randomContent(1024 + serial++);
      expectError(await uploadFile(admin, content, name), code);
      const { fingerprint } = describeFile(content);
      expectError(await admin.post(API.secondUpload, { fingerprint, size: content.length, name, parentId: null, category: 1 }), code);
    });
  }

  it('NFD and NFC spellings of one name clash as the same name', async () => {
    const nfc = `caf\u00E9-${serial++}.txt`;
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    await text(admin, nfc, 'first');
    expectError(await admin.post(API.mkdir, { parentId: null, category: 1, name: nfd }), ERRORS.NAME_CONFLICT.code);
    const other = await text(admin, `other-${serial++}.txt`, 'x');
    expectError(await admin.post(API.rename, { id: other.id, name: nfd }), ERRORS.NAME_CONFLICT.code);
    // Stored in NFC whatever was typed.
    const folder = await mkdir(admin, `re\u0301sume\u0301-${serial++}`.normalize('NFD'));
    expect(folder.name).toBe(folder.name.normalize('NFC'));
  });

  it('trailing spaces are trimmed, not refused', async () => {
    const name = `spaced-${serial++}.txt`;
    const made = await text(admin, `${name}   `, 'x');
    expect(made.name).toBe(name);
  });
});

describe('blocked types by stored name and by content', () => {
  it('a rename to a blocked extension is refused; a folder may be called anything allowed', async () => {
    const file = await text(admin, `tool-${serial++}.txt`, 'x');
    expectError(await admin.post(API.rename, { id: file.id, name: `tool-${serial}.exe` }), ERRORS.FILE_TYPE_BLOCKED.code);
    const folder = await mkdir(admin, `folder-${serial++}`);
    expect((await admin.post(API.rename, { id: folder.id, name: `setup-${serial}.exe` })).status).toBe(200);
  });

  it('createTxt refuses script.bat by its name and a #! script by its content', async () => {
    expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: `script-${serial++}.bat`, content: '@echo off' }), ERRORS.FILE_TYPE_BLOCKED.code);
    // The default list blocks executable types: a shell script is refused whatever it is called (issue 35).
    expectError(await admin.post(API.createTxt, { parentId: null, category: 1, name: `run-${serial++}.txt`, content: '#!/bin/sh\necho hi' }), ERRORS.FILE_CONTENT_BLOCKED.code);
  });

  it('a PE program uploaded as x.txt is refused at its first chunk, and nothing is left behind', async () => {
    const name = `innocent-${serial++}.txt`;
    await expect(uploadFile(admin, peBytes(), name)).rejects.toThrow(ERRORS.FILE_CONTENT_BLOCKED.code);
    expect(await names(admin, null)).not.toContain(name);
  });

  it('a PE named .dll is an executable too where executables are blocked; text starting with MZ is text', async () => {
    await expect(uploadFile(admin, peBytes(), `library-${serial++}.dll`)).rejects.toThrow(ERRORS.FILE_CONTENT_BLOCKED.code);
    expect((await admin.post(API.createTxt, { parentId: null, category: 1, name: `mz-${serial++}.txt`, content: 'MZ'.padEnd(300, ' notes') })).status).toBe(200);
  });

  it('a PE program claimed by second upload as x.txt is refused, only after the proof of possession', async () => {
    const pe = peBytes();
    await storeWhileNothingBlocked(server, admin, pe, `legacy-${serial++}.bin`);
    const refused = await secondUpload(admin, pe, `copy-${serial++}.txt`);
    expectError(refused.answer, ERRORS.FILE_CONTENT_BLOCKED.code);
    // Plain content stored the same way is claimed as usual.
    const plain = randomContent(5000 + serial++);
    await storeWhileNothingBlocked(server, admin, plain, `plain-${serial++}.bin`);
    expect((await secondUpload(admin, plain, `copy-${serial++}.txt`)).answer.body).toMatchObject({ data: { status: 'created' } });
  });
});
