import { ERRORS } from '../api/errors';
import { NAME_MAX_LENGTH } from '../constants';

/** Spec §5, first name rule: these characters are forbidden in file and folder names. */
export const FORBIDDEN_NAME_CHARS = ['|', ',', '/', '<', '>', '*', '?', '\\', '[', ']'] as const;
const FORBIDDEN_RE = /[|,/<>*?\\[\]]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** Spec §5, second name rule: only Chinese characters, letters, digits and underscore. */
const IDENT_RE = /^[\p{Script=Han}A-Za-z0-9_]+$/u;

export interface NameProblem {
  code: string;
  message: string;
}

const problem = (e: { code: string; message: string }): NameProblem => ({ code: e.code, message: e.message });

/**
 * Checks a file or folder name (first rule of §5, plus what every file system needs: not empty,
 * not '.' or '..', no control characters, at most 255 characters). Returns null when valid.
 * Names are compared trimmed: callers should store `name.trim()`.
 */
export function checkFileName(raw: string): NameProblem | null {
  const name = raw.trim();
  if (name.length === 0) return problem(ERRORS.NAME_EMPTY);
  if (name.length > NAME_MAX_LENGTH) return problem(ERRORS.NAME_TOO_LONG);
  if (FORBIDDEN_RE.test(name) || CONTROL_RE.test(name) || name === '.' || name === '..') {
    return problem(ERRORS.NAME_INVALID_CHARS);
  }
  return null;
}

/** Second rule of §5 (used for names such as group or department names). Returns null when valid. */
export function checkIdentifierName(raw: string): NameProblem | null {
  const name = raw.trim();
  if (name.length === 0) return problem(ERRORS.NAME_EMPTY);
  if (name.length > NAME_MAX_LENGTH) return problem(ERRORS.NAME_TOO_LONG);
  if (!IDENT_RE.test(name)) return problem(ERRORS.NAME_IDENT_INVALID);
  return null;
}
