/**
 * Archive member names every system can extract: Windows refuses `: " * ? < > | \ /`, control
 * characters, device names (CON, nul.txt, COM1…) and a trailing dot or space; most file systems
 * refuse a component over 255 bytes. Old entries (stored before the name rule of
 * common/validation/names.ts) and other clients' names may hold any of these.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what we replace
const UNPORTABLE_RE = /[:"*?<>|\\/\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;
const RESERVED_RE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)?$/i;
/** Bytes of one path component, UTF-8 (ext4, APFS, NTFS's 255 UTF-16 units are looser). */
export const COMPONENT_MAX_BYTES = 255;
/** An extension longer than this is not kept whole when a name is shortened. */
const EXTENSION_MAX_BYTES = 32;

/** UTF-8 length in bytes (common/ has no TextEncoder: it runs in every environment). */
function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** The longest prefix of `s` within `maxBytes` of UTF-8, never cutting a code point. */
export function truncateUtf8(s: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = utf8Length(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** `name` shortened to `maxBytes` of UTF-8, keeping its extension (when the extension is short). */
export function shortenKeepingExtension(name: string, maxBytes = COMPONENT_MAX_BYTES): string {
  if (utf8Length(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && utf8Length(name.slice(dot)) <= EXTENSION_MAX_BYTES ? name.slice(dot) : '';
  const base = ext ? name.slice(0, dot) : name;
  return truncateUtf8(base, maxBytes - utf8Length(ext)).trimEnd() + ext;
}

/**
 * One path component as it goes into a ZIP: characters Windows refuses become '_', trailing dots
 * and spaces go, a device name gets a leading '_', and the result fits `maxBytes` with its
 * extension kept. Never empty, never '.' or '..'.
 */
export function portableName(name: string, maxBytes = COMPONENT_MAX_BYTES): string {
  let out = name.normalize('NFC').replace(UNPORTABLE_RE, '_').replace(/[. ]+$/u, '').trim();
  if (out === '' || out === '.' || out === '..') out = '_';
  if (RESERVED_RE.test(out)) out = `_${out}`;
  return shortenKeepingExtension(out, maxBytes);
}
