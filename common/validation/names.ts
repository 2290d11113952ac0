import { ERRORS } from '../api/errors';
import { NAME_MAX_LENGTH } from '../constants';

/** Spec §5, first name rule: these characters are forbidden in file and folder names. */
export const FORBIDDEN_NAME_CHARS = ['|', ',', '/', '<', '>', '*', '?', '\\', '[', ']'] as const;
export type ForbiddenNameChar = (typeof FORBIDDEN_NAME_CHARS)[number];
const FORBIDDEN_RE = /[|,/<>*?\\[\]]/;
const FORBIDDEN_ALL_RE = /[|,/<>*?\\[\]]/g;
/**
 * Characters a name must not hide: C0 and C1 controls (U+0085 included), and every format
 * character (\p{Cf}: bidi controls such as U+202E that make `gpj.exe` read `exe.jpg`, zero-width
 * characters U+200B–U+200D, U+2060, U+FEFF, U+00AD…), plus line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what we drop
const INVISIBLE_ALL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
/** Control characters that stand for white space (tab, line breaks): a space in a suggested name. */
const CONTROL_SPACE_RE = /[\t\n\v\f\r\u0085\u2028\u2029]+/gu;
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

/**
 * The twin of each character the first rule forbids: what a Chinese keyboard types in its place and
 * what a reader takes for the same name. `[` `]` become 【】, the brackets Chinese text uses (the
 * full-width ［］ look like the refused ones); the others become their full-width forms (U+FF01–FF5E).
 * Shared by the web app's one-click fix and the desktop sync's report of names it cannot upload.
 */
export const FULL_WIDTH_TWINS: Readonly<Record<ForbiddenNameChar, string>> = {
  ',': '，',
  '[': '【',
  ']': '】',
  '|': '｜',
  '/': '／',
  '\\': '＼',
  '<': '＜',
  '>': '＞',
  '*': '＊',
  '?': '？',
};

/** `name` with every forbidden character replaced by its twin; nothing else changes. */
export function withFullWidthTwins(name: string): string {
  return name.replace(FORBIDDEN_ALL_RE, (ch) => FULL_WIDTH_TWINS[ch as ForbiddenNameChar]);
}

/** The forbidden characters `name` holds, each once, in the order they first appear. */
export function forbiddenCharsIn(name: string): ForbiddenNameChar[] {
  return [...new Set(name.match(FORBIDDEN_ALL_RE) ?? [])] as ForbiddenNameChar[];
}

/** An extension longer than this is not kept whole when a suggested name is shortened. */
const KEPT_EXTENSION_MAX = 32;

/** `name` cut to NAME_MAX_LENGTH UTF-16 units (checkFileName's measure), keeping a short extension and whole code points. */
function shortened(name: string): string {
  if (name.length <= NAME_MAX_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= KEPT_EXTENSION_MAX ? name.slice(dot) : '';
  let base = '';
  for (const ch of ext ? name.slice(0, dot) : name) {
    if (base.length + ch.length + ext.length > NAME_MAX_LENGTH) break;
    base += ch;
  }
  return base.trimEnd() + ext;
}

/**
 * The valid name closest to `raw`, offered as a one-click fix: its stored form (normalizeFileName)
 * with forbidden characters replaced by their twins (withFullWidthTwins), control white space made a
 * space and other invisible characters dropped, trailing dots dropped, a device name given a `_`
 * before its extension (`nul.txt` → `nul_.txt`), and a name over NAME_MAX_LENGTH shortened keeping its
 * extension. A valid name comes back as its stored form; null when nothing usable is left (empty,
 * only dots): the user must type a name.
 */
export function suggestFileName(raw: string): string | null {
  let name = withFullWidthTwins(raw.normalize('NFC').replace(CONTROL_SPACE_RE, ' ').replace(INVISIBLE_ALL_RE, ''));
  name = name.trim().replace(/[. ]+$/u, '');
  const reserved = RESERVED_RE.exec(name);
  if (reserved) name = `${reserved[1]}_${reserved[2] ?? ''}`;
  name = shortened(name).replace(/[. ]+$/u, '');
  return name !== '' && checkFileName(name) === null ? name : null;
}
