import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants';

/** Spec §5 messages, exactly. */
export const PASSWORD_MESSAGES = {
  required: '请输入密码',
  tooLong: '密码长度不能大于16个字符',
  tooShort: '密码长度不能小于8个字符',
  composition: '密码必须是8-16位字母、数字和符号三种组合',
  repeatRequired: '请再次输入密码',
  mismatch: '两次输入密码不一致!',
} as const;

const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
/** A symbol: any printable ASCII that is not a letter, digit or space. */
const SYMBOL = /[!-/:-@[-`{-~]/;
const ALLOWED = /^[!-~]+$/;

/** Returns the §5 message for the first broken rule, or null when the new password is acceptable. */
export function validateNewPassword(value: string): string | null {
  if (!value) return PASSWORD_MESSAGES.required;
  if (value.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (value.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (!ALLOWED.test(value) || !LETTER.test(value) || !DIGIT.test(value) || !SYMBOL.test(value)) {
    return PASSWORD_MESSAGES.composition;
  }
  return null;
}

export function validateRepeatPassword(value: string, newPassword: string): string | null {
  if (!value) return PASSWORD_MESSAGES.repeatRequired;
  if (value !== newPassword) return PASSWORD_MESSAGES.mismatch;
  return null;
}
