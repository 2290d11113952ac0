/**
 * Executable content recognised by its first bytes, whatever the file is called: a tenant that
 * blocks `exe` also refuses a PE program uploaded as `report.txt`. Each family lists the extensions
 * it stands for; content of a family is refused when the tenant blocks any of them.
 *
 * Script types (bat, cmd, vbs, ps1) have no signature — they are plain text — and are judged by name.
 * MSI shares the OLE container with Word and Excel 97 files, so it is judged by name too: refusing
 * the container would refuse every old Office document.
 */
export interface ContentFamily {
  name: string;
  extensions: readonly string[];
  matches(head: Uint8Array): boolean;
}

const startsWith = (head: Uint8Array, bytes: readonly number[]): boolean => bytes.every((b, i) => head[i] === b);

/**
 * A Windows program: the 'MZ' stub AND the 'PE\0\0' header it points to (e_lfanew at 0x3C). 'MZ'
 * alone is how plenty of text starts; the PE header is what Windows runs.
 */
function isWindowsProgram(h: Uint8Array): boolean {
  if (!startsWith(h, [0x4d, 0x5a]) || h.length < 0x40) return false;
  const peAt = h[0x3c]! | (h[0x3d]! << 8) | (h[0x3e]! << 16) | (h[0x3f]! << 24);
  return peAt >= 0x40 && peAt + 4 <= h.length && startsWith(h.subarray(peAt), [0x50, 0x45, 0x00, 0x00]);
}

export const CONTENT_FAMILIES: readonly ContentFamily[] = [
  { name: 'windows-executable', extensions: ['exe', 'com', 'scr', 'dll', 'sys', 'cpl', 'ocx', 'efi', 'pif'], matches: isWindowsProgram },
  { name: 'elf', extensions: ['elf', 'so', 'bin', 'run', 'out'], matches: (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    name: 'mach-o',
    extensions: ['dylib', 'macho', 'app'],
    matches: (h) => [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]].some((m) => startsWith(h, m)),
  },
  // '#!/…' scripts run by the interpreter they name (an absolute path: '#!' alone is just text).
  { name: 'shebang-script', extensions: ['sh', 'bash', 'zsh', 'ksh', 'csh', 'command', 'run'], matches: (h) => startsWith(h, [0x23, 0x21, 0x2f]) || startsWith(h, [0x23, 0x21, 0x20, 0x2f]) },
];

/** How many leading bytes the families need (the PE header usually sits within the first few hundred). */
export const CONTENT_HEAD_BYTES = 4096;

/**
 * The blocked extension the content stands for, or null when it is none of them. A file named as a
 * member of its own family (`lib.dll` holding a PE) is judged by that name alone: otherwise every DLL
 * would be refused wherever exe is blocked.
 */
export function blockedContentExtension(head: Uint8Array, blockedExtensions: readonly string[], ownExtension = ''): string | null {
  for (const family of CONTENT_FAMILIES) {
    if (!family.matches(head) || family.extensions.includes(ownExtension)) continue;
    const hit = family.extensions.find((e) => blockedExtensions.includes(e));
    if (hit) return hit;
  }
  return null;
}

/** Raster picture formats the server makes thumbnails of, by their first bytes. */
export type RasterFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'heif' | 'tiff';

/** How many leading bytes pictureFormatOf needs. */
export const PICTURE_HEAD_BYTES = 16;

const ascii = (h: Uint8Array, from: number, to: number): string => String.fromCharCode(...h.subarray(from, to));

/**
 * The raster format of a picture by its content, or null — whatever its name says. SVG (XML that can
 * carry scripts and external references) and anything else is never handed to the image decoder.
 */
export function pictureFormatOf(h: Uint8Array): RasterFormat | null {
  if (startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(h, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(h, 0, 6) === 'GIF87a' || ascii(h, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 12) === 'WEBP') return 'webp';
  if (startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(h, 4, 8) === 'ftyp') {
    const brand = ascii(h, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'mif1', 'msf1', 'hevc'].includes(brand)) return 'heif';
  }
  return null;
}
