/**
 * The stored sort key of a file name: comparing two keys byte by byte (SQLite's BINARY, or
 * `COLLATE "C"` on PostgreSQL) orders names as `Intl.Collator('zh-CN', { numeric: true })` does —
 * Chinese by pinyin (阿里 < 报告 < 张三), numbers by value (文件2 < 文件10), letters without regard to
 * case first — so a keyset page over an index on the key is the same order the user sees, from the
 * first page to the last.
 *
 * How: ICU's collator exposes no sort keys, so every BMP character is ranked once by the collator
 * itself (about 0.3 s, at first use) into primary groups (characters equal at base strength, such as
 * `a` and `A`) and variants within a group (counted from the group's plain ASCII letter, so plain
 * names record none). A key is the name's primary ranks (3 characters each;
 * a run of digits as one number: the digit marker, its length and its digits), a space, and then
 * each character's variant (1 character each) to break ties the way the collator's finer levels do.
 * A character beyond the BMP (an emoji, a rare ideograph) is placed by the collator among the BMP
 * groups (binary search, remembered): in a group, or in the gap between two, then by code point.
 *
 * The ranks come from the running ICU: a new ICU may move a few characters, so the keys say which
 * table made them (SORT_KEY_VERSION) and a migration recomputes them when it changes. A server keeps
 * the table it ranked (`rankTableBytes`) beside its data, under that same version, and gives it back
 * at its next start (`useRankTable`): ranking is ~15 % of a restart's CPU, reading the table ~1 ms.
 */

/** Bump when the key's layout changes; recorded by the migration that fills the keys. */
export const SORT_KEY_VERSION = 1;

/** 64 consecutive ASCII characters ('0'..'o'): their byte order is their value order. */
const DIGIT0 = 0x30;
const BASE = 64;
const code = (n: number): string => String.fromCharCode(DIGIT0 + n);
const code2 = (n: number): string => code(Math.floor(n / BASE) % BASE) + code(n % BASE);
const code3 = (n: number): string => code(Math.floor(n / (BASE * BASE)) % BASE) + code2(n % (BASE * BASE));

interface Ranks {
  /** Primary rank of each BMP code unit: twice its group (odd ranks are the gaps between groups); 0 = ignorable. */
  primary: Uint32Array;
  /** Position of the character within its primary group. */
  variant: Uint8Array;
  /** The primary rank of the digit zero (every decimal digit sorts as a number there). */
  digitGroup: number;
  /** One character of each group, in order: where a character beyond the BMP falls. */
  groupChars: string[];
  base: Intl.Collator;
  /** The primary code of characters beyond the BMP met so far. */
  astral: Map<number, string>;
}

let ranks: Ranks | null = null;

function buildRanks(): Ranks {
  const full = new Intl.Collator('zh-CN', { numeric: true });
  const base = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
  const chars: string[] = [];
  for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCharCode(cp));
  chars.sort((a, b) => full.compare(a, b) || a.charCodeAt(0) - b.charCodeAt(0));
  const primary = new Uint32Array(0x10000);
  const variant = new Uint8Array(0x10000);
  const groupChars: string[] = [];
  let inGroup = 0;
  let prev: string | null = null;
  for (const ch of chars) {
    const cp = ch.charCodeAt(0);
    if (base.compare(ch, '') === 0) continue; // ignorable: no weight at all
    if (prev === null || base.compare(prev, ch) !== 0) {
      groupChars.push(ch);
      inGroup = 0;
    } else if (full.compare(prev, ch) !== 0) {
      inGroup++;
    }
    primary[cp] = 2 * groupChars.length;
    variant[cp] = Math.min(inGroup, BASE - 1);
    prev = ch;
  }
  rotateVariantsToAscii(chars, primary, variant);
  return { primary, variant, digitGroup: primary[0x30]!, groupChars, base, astral: new Map() };
}

/**
 * Within each group, counts variants from the group's first printable ASCII member (`a` of a, A, ａ,
 * á…), keeping the collator's order after it and putting the few that sort before it (superscripts
 * and the like) last: most names then have no variant to record at all, and the key stays short.
 */
function rotateVariantsToAscii(chars: readonly string[], primary: Uint32Array, variant: Uint8Array): void {
  const anchor = new Map<number, number>();
  const size = new Map<number, number>();
  for (const ch of chars) {
    const cp = ch.charCodeAt(0);
    const g = primary[cp]!;
    if (g === 0) continue;
    size.set(g, Math.max(size.get(g) ?? 0, variant[cp]! + 1));
    if (cp >= 0x20 && cp <= 0x7e && !anchor.has(g)) anchor.set(g, variant[cp]!);
  }
  for (const ch of chars) {
    const cp = ch.charCodeAt(0);
    const a = anchor.get(primary[cp]!);
    if (a === undefined || a === 0) continue;
    const n = size.get(primary[cp]!)!;
    variant[cp] = (variant[cp]! - a + n) % n;
  }
}

/** primary (4 bytes each, little-endian), variant (1 byte each), FNV-1a of both (4 bytes). */
const TABLE_BYTES = 0x10000 * 5 + 4;

function fnv1a(bytes: Uint8Array, end: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  return h;
}

/** The rank table (ranked now if not yet), for the caller to keep under the ICU version that made it. */
export function rankTableBytes(): Uint8Array {
  const r = (ranks ??= buildRanks());
  const out = new Uint8Array(TABLE_BYTES);
  const view = new DataView(out.buffer);
  for (let cp = 0; cp < 0x10000; cp++) view.setUint32(cp * 4, r.primary[cp]!, true);
  out.set(r.variant, 0x40000);
  view.setUint32(TABLE_BYTES - 4, fnv1a(out, TABLE_BYTES - 4), true);
  return out;
}

/**
 * Takes a table `rankTableBytes` gave under the same SORT_KEY_VERSION and ICU, instead of ranking
 * again. Refused (false, nothing changed) when damaged, or when this collator disagrees with it on the
 * sampled characters: then the next key ranks afresh, as without a table.
 */
export function useRankTable(bytes: Uint8Array): boolean {
  if (ranks) return true;
  if (bytes.length !== TABLE_BYTES) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(TABLE_BYTES - 4, true) !== fnv1a(bytes, TABLE_BYTES - 4)) return false;
  const primary = new Uint32Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) primary[cp] = view.getUint32(cp * 4, true);
  const variant = bytes.slice(0x40000, 0x50000);
  // One member of each group stands for it (members are equal at base strength: any one places a character beyond the BMP).
  const groupChars: string[] = [];
  for (let cp = 0; cp < 0x10000; cp++) {
    const g = primary[cp]!;
    if (g !== 0) groupChars[g / 2 - 1] ??= String.fromCharCode(cp);
  }
  for (let i = 0; i < groupChars.length; i++) if (groupChars[i] === undefined) return false;
  const base = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });
  // Checks against this collator: groups in order (a sample), members equal to their group and ignorables
  // ignored (every ASCII character, then a sample).
  const step = Math.max(1, Math.floor(groupChars.length / 512));
  for (let i = 0; i + 1 < groupChars.length; i += step) if (base.compare(groupChars[i]!, groupChars[i + 1]!) >= 0) return false;
  for (let cp = 0; cp < 0x10000; cp += cp < 0x80 ? 1 : 61) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCharCode(cp);
    const g = primary[cp]!;
    if (g === 0 ? base.compare(ch, '') !== 0 : base.compare(ch, groupChars[g / 2 - 1]!) !== 0) return false;
  }
  ranks = { primary, variant, digitGroup: primary[0x30]!, groupChars, base, astral: new Map() };
  return true;
}

/** A character beyond the BMP: its group's rank, or the gap after the last group below it plus its code point. */
function astralCode(r: Ranks, ch: string, cp: number): string {
  const known = r.astral.get(cp);
  if (known !== undefined) return known;
  let lo = 0;
  let hi = r.groupChars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.base.compare(r.groupChars[mid]!, ch) < 0) lo = mid + 1;
    else hi = mid;
  }
  // lo: the first group not below the character (groups are ranked 2, 4, 6…: group i has rank 2(i + 1)).
  const found = lo < r.groupChars.length && r.base.compare(r.groupChars[lo]!, ch) === 0;
  const result = found ? code3(2 * (lo + 1)) : code3(2 * lo + 1) + code2(Math.floor(cp / 4096) % 4096) + code2(cp % 4096);
  if (r.astral.size < 10_000) r.astral.set(cp, result);
  return result;
}

/** The decimal value of a digit in any script (Nd), or -1. */
function digitValue(ch: string): number {
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 0x30;
  if (!/\p{Nd}/u.test(ch)) return -1;
  // Unicode decimal digits come in runs of ten starting at zero.
  const cp = ch.codePointAt(0)!;
  for (let d = 0; d <= 9; d++) if (!/\p{Nd}/u.test(String.fromCodePoint(cp - d - 1)) || d === 9) return d;
  return -1;
}

/** The sort key of a (NFC) name. */
export function nameSortKey(name: string): string {
  const r = (ranks ??= buildRanks());
  let primary = '';
  let variants = '';
  const chars = Array.from(name.normalize('NFC'));
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const cp = ch.codePointAt(0)!;
    if (cp > 0xffff) {
      if (r.base.compare(ch, '') === 0) continue;
      primary += astralCode(r, ch, cp);
      variants += code(0);
      continue;
    }
    const digit = digitValue(ch);
    if (digit >= 0) {
      // A run of digits is one number: compared by its length without leading zeros, then its digits.
      const digits: number[] = [];
      let j = i;
      for (; j < chars.length; j++) {
        const d = digitValue(chars[j]!);
        if (d < 0) break;
        if (digits.length > 0 || d !== 0) digits.push(d);
        variants += code(r.variant[chars[j]!.codePointAt(0)!]!);
      }
      primary += code3(r.digitGroup) + code2(Math.min(digits.length, BASE * BASE - 1)) + digits.map(code).join('');
      i = j - 1;
      continue;
    }
    const group = r.primary[cp]!;
    if (group === 0) continue;
    primary += code3(group);
    variants += code(r.variant[cp]!);
  }
  // Most names have no variants to tell apart: trailing zero variants are dropped (the smallest
  // character at the end of equal-length strings changes no comparison), and with them the space,
  // which sorts below every key character (so a name that is a prefix of another still sorts first).
  const tie = variants.replace(/0+$/, '');
  return tie ? `${primary} ${tie}` : primary;
}
