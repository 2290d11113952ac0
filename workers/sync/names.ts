/**
 * Names as the sync sees them: the key two spellings of one file share, what is never synced
 * (temporary files, the user's patterns), and which names a side cannot hold.
 *
 * The server compares names in Unicode NFC and case-insensitively (server/services/file-service.ts
 * nameKeyOf): `Café.txt` typed on macOS (NFD) and `café.txt` on Windows (NFC) are one file there. The
 * sync matches local and cloud entries by that same key, so a macOS name and its Windows twin are the
 * same file, and a case-only rename is a rename, not a delete plus an add.
 */
import picomatch from 'picomatch';
import { checkFileName, normalizeFileName } from '../../common/validation/names';

/** ASCII only: already NFC, and lower-casing cannot change its length. */
// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII = /^[\x00-\x7f]*$/;

/**
 * The key of a path: NFC, lower case (the server's name key, per component). Returns `path` itself
 * when it is its own key, so 100,000 keys of plain names cost no extra strings.
 */
export function pathKey(path: string): string {
  const key = ASCII.test(path) ? path.toLowerCase() : path.normalize('NFC').toLowerCase();
  return key === path ? path : key;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** '' for a top-level entry. */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

export function joinPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/** Is `path` inside the folder `dir` (not equal)? Both keys or both spellings. */
export function isInside(path: string, dir: string): boolean {
  return path.length > dir.length && path.startsWith(dir) && path[dir.length] === '/';
}

/**
 * Never synced, in either direction: Office lock files (`~$报告.docx`), LibreOffice locks, editors'
 * swap and backup files, the desktop litter of macOS and Windows, partial downloads of browsers, and
 * the sync's own folder.
 */
const TEMPORARY_PATTERNS: readonly RegExp[] = [
  /^~\$/, // Office owner files
  /^\.~lock\..*#$/, // LibreOffice
  /^\.~lock\./,
  /^~.*\.tmp$/i, // Office temporaries
  /^thumbs\.db$/i,
  /^ehthumbs\.db$/i,
  /^desktop\.ini$/i,
  /^\.ds_store$/i,
  /^\._/, // AppleDouble
  /^\.spotlight-v100$/i,
  /^\.trashes$/i,
  /^\.fseventsd$/i,
  /^\$recycle\.bin$/i,
  /^\..*\.sw[a-p]$/, // vim swap files
  /^\.#/, // emacs lock links
  /^#.*#$/, // emacs auto-save
  /~$/, // editors' backups
  /\.(crdownload|part|partial|download)$/i,
  /^\.cloud-drive-sync$/, // the sync's own temporary and trash folder (SYNC_DIR_NAME)
];

/** The folder inside a synced folder where the sync keeps its temporary downloads and local trash. */
export const SYNC_DIR_NAME = '.cloud-drive-sync';

/** The patterns above as one expression: a scan tests every name. */
const TEMPORARY = new RegExp(TEMPORARY_PATTERNS.map((re) => `(?:${re.source})`).join('|'), 'i');

export function isTemporaryName(name: string): boolean {
  return TEMPORARY.test(name);
}

/**
 * The user's ignore patterns, matched against the path inside the pair (and against every
 * ancestor, so `build` or `build/` ignores the folder and everything in it). A pattern without a
 * slash matches a name at any depth, like .gitignore.
 */
export function createIgnoreMatcher(patterns: readonly string[]): (path: string, isDir: boolean) => boolean {
  const compiled = patterns
    .map((p) => p.trim())
    .filter((p) => p !== '' && !p.startsWith('#'))
    .map((p) => {
      const dirOnly = p.endsWith('/');
      const body = p.replace(/\/+$/, '').replace(/^\/+/, '');
      const anchored = p.startsWith('/') || body.includes('/');
      const match = picomatch(anchored ? body : `**/${body}`, { dot: true, nocase: true });
      return { dirOnly, match };
    });
  if (compiled.length === 0) return (path) => isTemporaryName(baseName(path));
  return (path, isDir) => {
    if (isTemporaryName(baseName(path))) return true;
    return compiled.some(({ dirOnly, match }) => (!dirOnly || isDir) && match(path));
  };
}

/**
 * Why the server would refuse this local name, or null. Beyond the shared rule (§5's characters,
 * control and invisible characters, device names, trailing dot), a name the server would store
 * differently (leading or trailing spaces, which it trims) is refused too: the two sides would
 * never agree on it.
 */
export function serverNameProblem(name: string): string | null {
  const problem = checkFileName(name);
  if (problem) return problem.message;
  if (normalizeFileName(name) !== name.normalize('NFC')) return '名称首尾不能有空格';
  return null;
}

/**
 * Why another computer of the pair's user could not hold this name although the server takes it, or
 * null: Windows cannot hold `:` or `"` (the server's rule already refuses `< > | ? * \\ /`, trailing
 * dots and spaces, device names and control characters), and Linux and macOS hold at most 255 bytes
 * (a Windows name of 255 characters may be up to 765). Such a name is not brought into the cloud by
 * the sync (docs/sync.md, "Names"): refused, with the rule, rather than mapped to another spelling
 * that the web app and the other computers would show.
 */
export function peerNameProblem(name: string): string | null {
  if (/[:"]/.test(name)) return '名称含有 Windows 电脑无法保存的字符（: 或 "）';
  if (new TextEncoder().encode(name.normalize('NFC')).length > 255) return '名称超过 255 字节，Linux 和 macOS 电脑无法保存';
  return null;
}

export type LocalPlatform = 'win32' | 'darwin' | 'linux';

// eslint-disable-next-line no-control-regex -- control characters are exactly what Windows refuses
const WINDOWS_FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f]/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)?$/i;

/** Why this computer's file system cannot hold a cloud name, or null. */
export function localNameProblem(name: string, platform: LocalPlatform): string | null {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) return '本机无法保存该名称';
  // NTFS counts UTF-16 units, the others bytes (ext4, APFS).
  if (platform === 'win32' ? name.length > 255 : new TextEncoder().encode(name).length > 255) return '名称过长，本机无法保存';
  if (platform === 'win32') {
    if (WINDOWS_FORBIDDEN.test(name)) return 'Windows 不支持名称中的 < > : " / \\ | ? * 字符';
    if (WINDOWS_RESERVED.test(name)) return 'Windows 保留名称（CON、NUL、COM1 等）无法保存';
    if (/[. ]$/.test(name)) return 'Windows 不支持以点号或空格结尾的名称';
  }
  return null;
}
