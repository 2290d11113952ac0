import { describe, expect, it } from 'vitest';
import { checkFileName, checkIdentifierName, FORBIDDEN_NAME_CHARS } from '../../../common/validation/names';
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
    expect(checkFileName('a\u0007b')?.code).toBe(ERRORS.NAME_INVALID_CHARS.code);
    expect(checkFileName('x'.repeat(256))?.code).toBe(ERRORS.NAME_TOO_LONG.code);
    expect(checkFileName('x'.repeat(255))).toBeNull();
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
