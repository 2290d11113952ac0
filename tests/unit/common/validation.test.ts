import { describe, expect, it } from 'vitest';
import { blockedContentFamily, executableFamilyOf } from '../../../common/files/content-signatures';
import { DEFAULT_BLOCKED_EXTENSIONS } from '../../../common/transfer/checks';
import { checkFileName, checkIdentifierName, FORBIDDEN_NAME_CHARS, normalizeFileName } from '../../../common/validation/names';
import { PASSWORD_MESSAGES, validateNewPassword, validateRepeatPassword } from '../../../common/validation/password';
import { ERRORS } from '../../../common/api/errors';

describe('checkFileName (spec §5 first rule)', () => {
  it.each(FORBIDDEN_NAME_CHARS.map((c) => [c]))('refuses %s', (c) => {
    expect(checkFileName(`a${c}b`)?.code).toBe(ERRORS.NAME_INVALID_CHARS.code);
  });
  it('accepts ordinary names, including Chinese, spaces and dots', () => {
    for (const n of ['报告 2024.docx', 'a.b.c', '.hidden', 'x(1)', '数据_备份']) expect(checkFileName(n)).toBeNull();
  });
  it('refuses empty, dot names, control characters and over-long names', () => {
    expect(checkFileName('   ')?.code).toBe(ERRORS.NAME_EMPTY.code);
    expect(checkFileName('..')?.code).toBe(ERRORS.NAME_INVALID_CHARS.code);
    expect(checkFileName('a\u0007b')?.code).toBe(ERRORS.NAME_INVISIBLE_CHARS.code);
    expect(checkFileName('x'.repeat(256))?.code).toBe(ERRORS.NAME_TOO_LONG.code);
    expect(checkFileName('x'.repeat(255))).toBeNull();
  });
});

describe('checkFileName: names every file system and desktop client can hold, shown as they are', () => {
  it.each([
    ['U+202E right-to-left override', 'report\u202Efdp.exe'],
    ['U+202A..U+202D and U+2066..U+2069 bidi controls', 'a\u202Ab\u2066c'],
    ['U+200E / U+200F marks', 'a\u200Fb'],
    ['U+200B zero-width space', 'x.exe\u200B'],
    ['U+200C / U+200D joiners', 'a\u200Db'],
    ['U+2060 word joiner', 'a\u2060b'],
    ['U+FEFF inside a name (at either end it is trimmed like white space)', 'name\uFEFF.txt'],
    ['U+00AD soft hyphen', 'na\u00ADme'],
    ['U+0085 next line (C1)', 'a\u0085b'],
    ['U+009B (C1)', 'a\u009Bb'],
    ['U+0000', 'a\u0000b'],
    ['U+2028 line separator', 'a\u2028b'],
  ])('refuses %s', (_label, name) => {
    expect(checkFileName(name)?.code).toBe(ERRORS.NAME_INVISIBLE_CHARS.code);
  });

  it.each(['CON', 'con', 'nul.txt', 'COM1.txt', 'lpt9', 'Aux.log', 'PRN.tar', 'COM¹'])('refuses the Windows device name %s', (name) => {
    expect(checkFileName(name)?.code).toBe(ERRORS.NAME_RESERVED.code);
  });

  it('allows names that only start like a device name', () => {
    for (const n of ['console.txt', 'CON1', 'nullable.ts', 'COM10.txt', 'my con.txt', 'con.tar.gz']) expect(checkFileName(n), n).toBeNull();
  });

  it('refuses a trailing dot (x.exe. would be x.exe on Windows) and trims trailing spaces', () => {
    expect(checkFileName('x.exe.')?.code).toBe(ERRORS.NAME_TRAILING_DOT.code);
    expect(checkFileName('notes...')?.code).toBe(ERRORS.NAME_TRAILING_DOT.code);
    expect(checkFileName('x.exe . ')?.code).toBe(ERRORS.NAME_TRAILING_DOT.code);
    expect(checkFileName('x.txt  ')).toBeNull();
    expect(normalizeFileName('  x.txt  ')).toBe('x.txt');
  });

  it('stores NFC: the NFD spelling of café.txt is the same name', () => {
    const nfd = 'cafe\u0301.txt';
    const nfc = 'caf\u00E9.txt';
    expect(nfd).not.toBe(nfc);
    expect(normalizeFileName(nfd)).toBe(nfc);
    expect(checkFileName(nfd)).toBeNull();
  });
});

describe('blockedContentFamily: executables by their first bytes, whatever the name', () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  const text = (t: string) => new TextEncoder().encode(t);
  /** A minimal PE image head: the MZ stub pointing (e_lfanew) at 'PE\0\0'. */
  const pe = () => {
    const h = new Uint8Array(0x100);
    h.set([0x4d, 0x5a], 0);
    h.set([0x80, 0, 0, 0], 0x3c);
    h.set([0x50, 0x45, 0, 0], 0x80);
    return h;
  };
  const defaults = [...DEFAULT_BLOCKED_EXTENSIONS];
  it('under the default list refuses PE, ELF, Mach-O (thin and universal) and #! scripts', () => {
    expect(blockedContentFamily(pe(), defaults)).toBe('windows-executable');
    expect(blockedContentFamily(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1), defaults)).toBe('elf');
    expect(blockedContentFamily(bytes(0xcf, 0xfa, 0xed, 0xfe), defaults)).toBe('mach-o');
    expect(blockedContentFamily(bytes(0xfe, 0xed, 0xfa, 0xce), defaults)).toBe('mach-o');
    // A universal binary: 0xCAFEBABE then the count of architectures (2: x86_64 and arm64).
    expect(blockedContentFamily(bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2), defaults)).toBe('mach-o');
    expect(blockedContentFamily(bytes(0xca, 0xfe, 0xba, 0xbf, 0, 0, 0, 3), defaults)).toBe('mach-o');
    expect(blockedContentFamily(text('#!/bin/sh\necho hi'), defaults)).toBe('shebang-script');
    expect(blockedContentFamily(text('#! /usr/bin/env python3\n'), defaults)).toBe('shebang-script');
  });
  it('any program or script type on the list blocks executables; a list without one lets them through', () => {
    expect(blockedContentFamily(bytes(0x7f, 0x45, 0x4c, 0x46), ['exe'])).toBe('elf');
    expect(blockedContentFamily(pe(), ['sh'])).toBe('windows-executable');
    expect(blockedContentFamily(pe(), ['docx', 'mp4'])).toBeNull();
    expect(blockedContentFamily(pe(), [])).toBeNull();
  });
  it('leaves plain content alone, also what merely starts like a program', () => {
    // 'MZ' without the PE header it would point to is text, whatever is blocked.
    expect(executableFamilyOf(text('MZ is also how this note starts, and it goes on long enough to have a 0x3C byte or more'))).toBeNull();
    expect(executableFamilyOf(text('#! not a script'))).toBeNull();
    // A Java class file: 0xCAFEBABE then its version (major 52), not a count of architectures.
    expect(executableFamilyOf(bytes(0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52))).toBeNull();
    expect(executableFamilyOf(bytes(0x25, 0x50, 0x44, 0x46))).toBeNull();
    expect(executableFamilyOf(bytes())).toBeNull();
  });
});

describe('checkIdentifierName (spec §5 second rule)', () => {
  it('allows Chinese, letters, digits, underscore only', () => {
    expect(checkIdentifierName('研发部_01')).toBeNull();
    expect(checkIdentifierName('研发 部')?.code).toBe(ERRORS.NAME_IDENT_INVALID.code);
    expect(checkIdentifierName('a-b')?.code).toBe(ERRORS.NAME_IDENT_INVALID.code);
    expect(checkIdentifierName('')?.code).toBe(ERRORS.NAME_EMPTY.code);
  });
});

describe('validateNewPassword (spec §5)', () => {
  it.each([
    ['', PASSWORD_MESSAGES.required],
    ['Ab1!Ab1!Ab1!Ab1!x', PASSWORD_MESSAGES.tooLong],
    ['Ab1!', PASSWORD_MESSAGES.tooShort],
    ['abcdefgh', PASSWORD_MESSAGES.composition],
    ['abcd1234', PASSWORD_MESSAGES.composition],
    ['abcd!@#$', PASSWORD_MESSAGES.composition],
    ['1234!@#$', PASSWORD_MESSAGES.composition],
    ['abc 123!x', PASSWORD_MESSAGES.composition],
    ['Abc1234!', null],
    ['Ab1!Ab1!Ab1!Ab1!', null],
  ])('%j → %s', (value, message) => {
    expect(validateNewPassword(value)).toBe(message);
  });
  it('checks the repeat', () => {
    expect(validateRepeatPassword('', 'Abc1234!')).toBe(PASSWORD_MESSAGES.repeatRequired);
    expect(validateRepeatPassword('Abc1234?', 'Abc1234!')).toBe('两次输入密码不一致!');
    expect(validateRepeatPassword('Abc1234!', 'Abc1234!')).toBeNull();
  });
});
