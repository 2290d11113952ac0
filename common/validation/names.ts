import { ERRORS } from '../api/errors';
import { NAME_MAX_LENGTH } from '../constants';

/** Spec §5, first name rule: these characters are forbidden in file and folder names. */
export const FORBIDDEN_NAME_CHARS = ['|', ',', '/', '<', '>', '*', '?', '\\', '[', ']'] as const;
const FORBIDDEN_RE = /[|,/<>*?\\[\]]/;
/**
 * Characters a name must not hide: C0 and C1 controls (U+0085 included), and every format
 * character (\p{Cf}: bidi controls such as U+202E that make `gpj.exe` read `exe.jpg`, zero-width
 * characters U+200B–U+200D, U+2060, U+FEFF, U+00AD…), plus line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;
/** Windows device names: a file called `nul.txt` or `COM1` cannot exist on Windows (desktop sync, ZIPs). */
const RESERVED_RE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)?$/i;

/** Spec §5, second name rule: only Chinese characters, letters, digits and underscore. */
const IDENT_RE = /^[\p{Script=Han}A-Za-z0-9_]+$/u;

export interface NameProblem {
  code: string;
  message: string;
}

const problem = (e: { code: string; message: string }): NameProblem => ({ code: e.code, message: e.message });

/**
 * The form a name is stored and compared in: Unicode NFC (so `café` typed on macOS, NFD, and on
 * Windows, NFC, is one name), without leading or trailing white space.
 */
export function normalizeFileName(raw: string): string {
  return raw.normalize('NFC').trim();
}

/**
 * Checks a file or folder name (first rule of §5, plus what every file system and desktop client
 * needs: not empty, not '.' or '..', no control or invisible characters, not a Windows device name,
 * no trailing dot, at most 255 characters). Returns null when valid. The name is checked in its
 * stored form (normalizeFileName): callers store that. Trailing spaces are trimmed (neutralised);
 * a trailing dot is refused rather than dropped, since dropping it would silently change the name
 * (and `x.exe.` would become `x.exe`).
 */
export function checkFileName(raw: string): NameProblem | null {
  const name = normalizeFileName(raw);
  if (name.length === 0) return problem(ERRORS.NAME_EMPTY);
  if (name.length > NAME_MAX_LENGTH) return problem(ERRORS.NAME_TOO_LONG);
  if (FORBIDDEN_RE.test(name) || name === '.' || name === '..') return problem(ERRORS.NAME_INVALID_CHARS);
  if (INVISIBLE_RE.test(name)) return problem(ERRORS.NAME_INVISIBLE_CHARS);
  if (name.endsWith('.')) return problem(ERRORS.NAME_TRAILING_DOT);
  if (RESERVED_RE.test(name)) return problem(ERRORS.NAME_RESERVED);
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
