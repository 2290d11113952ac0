/**
 * Executable content recognised by its first bytes, whatever the file is called (issue 35): a tenant
 * that blocks executable types refuses every program and script it can recognise, under any name —
 * `tool.txt`, `report.bin`, `lib.dll` or `build.so` alike. Renaming never changes the verdict on the
 * bytes, so it composes with the name rule: a (name, content) pair is refused when either is.
 *
 * Script types without a signature (bat, cmd, vbs, ps1: plain text) are judged by name only. MSI
 * shares the OLE container with Word and Excel 97 files, so it is judged by name too: refusing the
 * container would refuse every old Office document.
 */
export interface ContentFamily {
  name: 'windows-executable' | 'elf' | 'mach-o' | 'shebang-script';
  matches(head: Uint8Array): boolean;
}

const startsWith = (head: Uint8Array, bytes: readonly number[]): boolean => bytes.every((b, i) => head[i] === b);
const uint32be = (h: Uint8Array, at: number): number => ((h[at]! << 24) | (h[at + 1]! << 16) | (h[at + 2]! << 8) | h[at + 3]!) >>> 0;

/**
 * A Windows program: the 'MZ' stub AND the 'PE\0\0' header it points to (e_lfanew at 0x3C). 'MZ'
 * alone is how plenty of text starts; the PE header is what Windows runs.
 */
function isWindowsProgram(h: Uint8Array): boolean {
  if (!startsWith(h, [0x4d, 0x5a]) || h.length < 0x40) return false;
  const peAt = h[0x3c]! | (h[0x3d]! << 8) | (h[0x3e]! << 16) | (h[0x3f]! << 24);
  return peAt >= 0x40 && peAt + 4 <= h.length && startsWith(h.subarray(peAt), [0x50, 0x45, 0x00, 0x00]);
}

/**
 * Mach-O: thin images (32/64-bit, either byte order) and universal ("fat") ones, 0xCAFEBABE /
 * 0xCAFEBABF followed by the count of architectures. Java class files start with 0xCAFEBABE too,
 * followed by their version (major 45 and up): a universal binary holds a handful of architectures,
 * so a count below 20 is Mach-O (the rule file(1) uses).
 */
function isMachO(h: Uint8Array): boolean {
  const thin = [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe]];
  if (thin.some((m) => startsWith(h, m))) return true;
  if (h.length < 8 || !(startsWith(h, [0xca, 0xfe, 0xba, 0xbe]) || startsWith(h, [0xca, 0xfe, 0xba, 0xbf]))) return false;
  const architectures = uint32be(h, 4);
  return architectures >= 1 && architectures < 20;
}

export const CONTENT_FAMILIES: readonly ContentFamily[] = [
  { name: 'windows-executable', matches: isWindowsProgram },
  { name: 'elf', matches: (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46]) },
  { name: 'mach-o', matches: isMachO },
  // '#!/…' scripts run by the interpreter they name (an absolute path: '#!' alone is just text).
  { name: 'shebang-script', matches: (h) => startsWith(h, [0x23, 0x21, 0x2f]) || startsWith(h, [0x23, 0x21, 0x20, 0x2f]) },
];

/**
 * Extensions of programs and scripts. A tenant whose blocked list names any of them blocks
 * executables, and then executable content is refused whatever its name (the default list blocks
 * exe, bat, cmd, com, scr, vbs, msi and ps1: executables are blocked).
 */
export const EXECUTABLE_EXTENSIONS: readonly string[] = [
  // Windows programs, libraries, installers and scripts
  'exe', 'com', 'scr', 'dll', 'sys', 'cpl', 'ocx', 'efi', 'pif', 'msi', 'msp', 'bat', 'cmd', 'vbs', 'vbe', 'js', 'jse', 'wsf', 'wsh', 'ps1', 'psm1', 'hta',
  // Linux and macOS programs and libraries
  'elf', 'so', 'bin', 'run', 'out', 'appimage', 'dylib', 'macho', 'app',
  // Unix scripts
  'sh', 'bash', 'zsh', 'ksh', 'csh', 'command',
];

/** How many leading bytes the families need (the PE header usually sits within the first few hundred). */
export const CONTENT_HEAD_BYTES = 4096;

/** Does this blocked list block executables (any program or script type)? */
export function blocksExecutables(blockedExtensions: readonly string[]): boolean {
  return blockedExtensions.some((e) => EXECUTABLE_EXTENSIONS.includes(e));
}

/** The executable family the content belongs to, or null: plain content, whatever it is called. */
export function executableFamilyOf(head: Uint8Array): ContentFamily['name'] | null {
  return CONTENT_FAMILIES.find((f) => f.matches(head))?.name ?? null;
}

/** The family that makes these bytes refused under this blocked list, or null when they may be stored. */
export function blockedContentFamily(head: Uint8Array, blockedExtensions: readonly string[]): ContentFamily['name'] | null {
  return blocksExecutables(blockedExtensions) ? executableFamilyOf(head) : null;
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
