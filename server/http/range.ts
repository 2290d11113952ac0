/** Result of reading a `Range` header against a resource of `size` bytes. */
export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number } // end inclusive
  | { kind: 'unsatisfiable' };

/**
 * Single byte ranges only: `bytes=a-b`, `bytes=a-`, `bytes=-n`. Anything else we do not understand
 * (multiple ranges, other units, garbage) is ignored and the whole body is sent, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    if (size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}

/** RFC 6266 / 5987 Content-Disposition: an ASCII fallback plus the exact UTF-8 name. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
