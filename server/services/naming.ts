/**
 * Free names for the 'rename' conflict policy: 'a.txt' → 'a (1).txt', 'a (2).txt', ... The extension
 * is the part after the last dot, unless the name starts with its only dot ('.env' has none).
 */
export function splitName(name: string): { base: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { base: name, ext: '' };
  return { base: name.slice(0, dot), ext: name.slice(dot) };
}

export function numberedName(name: string, n: number): string {
  const { base, ext } = splitName(name);
  return `${base} (${n})${ext}`;
}

/**
 * The first 'name (n).ext' whose case-folded key is not in `takenKeys` (keys are lower-cased names).
 * `takenKeys` needs only the keys that look like numbered variants, plus the name itself.
 */
export function freeName(name: string, takenKeys: ReadonlySet<string>): string {
  if (!takenKeys.has(name.toLowerCase())) return name;
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, n);
    if (!takenKeys.has(candidate.toLowerCase())) return candidate;
  }
}

/** LIKE pattern (escape '\') matching every numbered variant of `name`, lower case. */
export function numberedLikePattern(name: string): string {
  const { base, ext } = splitName(name.toLowerCase());
  const esc = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `${esc(base)} (%)${esc(ext)}`;
}
