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

/**
 * What a request of a metered download (a link ticket) asks for: a part it may have, the whole (no
 * Range, or one the server does not honour exactly: invalid, several ranges, another unit, or an
 * If-Range that is not `etag`), or nothing satisfiable. `ranged` says whether a Range was sent, so a
 * refusal can answer 416 to it.
 */
export type TicketAsk = { kind: 'whole'; ranged: boolean } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function ticketAsk(range: string | undefined, ifRange: string | undefined, etag: string, size: number): TicketAsk {
  if (range === undefined) return { kind: 'whole', ranged: false };
  if (ifRange !== undefined && ifRange !== etag) return { kind: 'whole', ranged: true };
  const r = parseRange(range, size);
  if (r.kind === 'partial') return { kind: 'part', start: r.start, end: r.end };
  if (r.kind === 'unsatisfiable') return r;
  return { kind: 'whole', ranged: true };
}

/** RFC 6266 / 5987 Content-Disposition: an ASCII fallback plus the exact UTF-8 name. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
