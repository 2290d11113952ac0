import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../common/api/failure';
import { decryptPassword, encryptPassword } from '../../../common/crypto/password-cipher';
import { chunkCount, chunkRange, fingerprintInput, bytesToHex, hexToBytes } from '../../../common/transfer/protocol';
import { fileKindOf } from '../../../common/files/kind';
import { ERRORS } from '../../../common/api/errors';

describe('classifyFailure (spec §8)', () => {
  it('maps every branch', () => {
    expect(classifyFailure(400, { errorCode: '400sec-core-301', errorMessage: 'bye' })).toEqual({ kind: 'sessionTerminated', errorMessage: 'bye' });
    expect(classifyFailure(400, { errorCode: 'X', errorMessage: 'bad' })).toEqual({ kind: 'badRequest', errorCode: 'X', errorMessage: 'bad' });
    expect(classifyFailure(401, null)).toEqual({ kind: 'unauthorized' });
    expect(classifyFailure(500, { errorCode: 'DEP10213', message: 'm' })).toEqual({ kind: 'downloadExceeded' });
    expect(classifyFailure(500, { errorCode: 'E', message: 'boom' })).toEqual({ kind: 'serverError', errorCode: 'E', message: 'boom' });
    expect(classifyFailure(500, { errorCode: 'E', errorMessage: 'fallback' })).toMatchObject({ message: 'fallback' });
    expect(classifyFailure(404, {})).toEqual({ kind: 'ignored', status: 404 });
  });
  it('every catalogued code is unique', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('password cipher (spec §9)', () => {
  it('round-trips and is not the plain text', () => {
    const c = encryptPassword('Admin@2024');
    expect(c).not.toContain('Admin');
    expect(decryptPassword(c)).toBe('Admin@2024');
  });
  it('is AES-128-CBC with PKCS#7 and the spec key and IV (checked against node:crypto, so a backend can decrypt it)', () => {
    const cipher = createCipheriv('aes-128-cbc', Buffer.from('Cl0udDr1ve#K3y!6'), Buffer.from('Cl0udDr1ve#Iv!16'));
    const expected = Buffer.concat([cipher.update('Admin@2024 密码', 'utf8'), cipher.final()]).toString('base64');
    expect(encryptPassword('Admin@2024 密码')).toBe(expected);
  });
  it('gives null for garbage', () => {
    expect(decryptPassword('not-a-cipher')).toBeNull();
    expect(decryptPassword('')).toBeNull();
  });
});

describe('transfer protocol helpers', () => {
  it('counts and slices chunks', () => {
    expect(chunkCount(0, 4)).toBe(1);
    expect(chunkCount(8, 4)).toBe(2);
    expect(chunkCount(9, 4)).toBe(3);
    expect(chunkRange(2, 9, 4)).toEqual({ start: 8, end: 9 });
  });
  it('concatenates raw digests for the fingerprint', () => {
    const a = 'ab'.repeat(32);
    const b = '01'.repeat(32);
    const input = fingerprintInput([a, b]);
    expect(input.length).toBe(64);
    expect(bytesToHex(input)).toBe(a + b);
    expect(() => hexToBytes('zz')).toThrow();
  });
});

describe('fileKindOf (spec §3 kinds)', () => {
  it.each([
    ['a.DOCX', 'word'], ['b.xlsx', 'excel'], ['c.pptx', 'ppt'], ['d.pdf', 'pdf'], ['e.txt', 'txt'],
    ['f.PNG', 'picture'], ['g.mp4', 'video'], ['h.mp3', 'music'], ['i.zip', 'package'],
    ['noext', 'unknown'], ['.bashrc', 'unknown'], ['weird.', 'unknown'],
  ])('%s → %s', (name, kind) => {
    expect(fileKindOf(name, false)).toBe(kind);
  });
  it('folders are folders', () => expect(fileKindOf('x.pdf', true)).toBe('folder'));
});
