/**
 * Pure helpers over an extracted text: which page a character is on, where keywords are, and the
 * snippet around a match. Offsets are JavaScript string indices (UTF-16 units), as docrend's
 * pageStarts are.
 */
import { createHash } from 'node:crypto';

export interface KeywordHit {
  keyword: string;
  atChar: number;
  /** 1-based page for a paged text; null otherwise. */
  page: number | null;
}

/** One piece of a snippet: the client marks the pieces with `mark` (never HTML from the server). */
export interface SnippetSegment {
  text: string;
  mark: boolean;
}

/** The 1-based page holding character `at`, or null for a text without pages. */
export function pageOf(pageStarts: readonly number[] | null, at: number): number | null {
  if (!pageStarts || pageStarts.length === 0) return null;
  let lo = 0;
  let hi = pageStarts.length - 1;
  // The last page that starts at or before `at` (binary search: a text may have thousands of pages).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pageStarts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Where each keyword first occurs, case-insensitively (the lower-cased text must keep the text's
 * length for its offsets to hold; where it does not — a few letters lower to two units — the text is
 * searched as it is, for keywords lowered the same way).
 */
export function findKeywords(body: string, pageStarts: readonly number[] | null, keywords: readonly string[]): KeywordHit[] {
  const lowered = body.toLowerCase();
  const haystack = lowered.length === body.length ? lowered : body;
  const hits: KeywordHit[] = [];
  for (const keyword of new Set(keywords.filter((k) => k.trim() !== ''))) {
    const at = haystack.indexOf(haystack === lowered ? keyword.toLowerCase() : keyword);
    if (at >= 0) hits.push({ keyword, atChar: at, page: pageOf(pageStarts, at) });
  }
  return hits.sort((a, b) => a.atChar - b.atChar);
}

/**
 * The hash of a keyword list (order does not matter; case does, as hits record the keyword as the
 * list spells it): which list a text was checked against.
 */
export function keywordsHash(keywords: readonly string[]): string {
  const list = [...new Set(keywords.map((k) => k.trim()).filter(Boolean))].sort();
  return createHash('sha256').update(JSON.stringify(list)).digest('hex').slice(0, 32);
}

const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const BEFORE = 30;
const AFTER = 90;

/**
 * The snippet around the first match of `keyword` in `body`: about BEFORE characters before it and
 * AFTER after, cut at word-ish boundaries, line and page breaks shown as spaces, every occurrence of
 * the keyword in the window marked. Null when the text does not hold the keyword.
 */
export function snippetOf(body: string, keyword: string): { at: number; segments: SnippetSegment[] } | null {
  const lowered = body.toLowerCase();
  const exact = lowered.length === body.length;
  const hay = exact ? lowered : body;
  const needle = exact ? keyword.toLowerCase() : keyword;
  const at = hay.indexOf(needle);
  if (at < 0 || needle.length === 0) return null;
  let start = Math.max(0, at - BEFORE);
  let end = Math.min(body.length, at + needle.length + AFTER);
  // Never cut a Latin word (CJK text has no spaces to cut at: it is cut anywhere).
  const word = /[\p{L}\p{N}]/u;
  const wordAt = (i: number) => i > 0 && i < body.length && word.test(body[i - 1]!) && word.test(body[i]!) && !SPACELESS.test(body[i]!);
  if (wordAt(start)) {
    let s = start;
    while (s < at && wordAt(s)) s += 1;
    if (s < at) start = s;
  }
  if (wordAt(end)) {
    let e = end;
    while (e > at + needle.length && wordAt(e)) e -= 1;
    if (e > at + needle.length) end = e;
  }
  // Never cut a surrogate pair in two.
  if (start > 0 && /[\udc00-\udfff]/.test(body[start]!)) start -= 1;
  if (end < body.length && /[\udc00-\udfff]/.test(body[end]!)) end += 1;
  const segments: SnippetSegment[] = [];
  const push = (text: string, mark: boolean) => {
    const clean = text.replace(/[\s\f]+/g, ' ');
    if (clean === '') return;
    const last = segments[segments.length - 1];
    if (last && last.mark === mark) last.text += clean;
    else segments.push({ text: clean, mark });
  };
  if (start > 0) push('…', false);
  let pos = start;
  for (let i = hay.indexOf(needle, start); i >= 0 && i + needle.length <= end; i = hay.indexOf(needle, i + needle.length)) {
    push(body.slice(pos, i), false);
    push(body.slice(i, i + needle.length), true);
    pos = i + needle.length;
  }
  push(body.slice(pos, end), false);
  if (end < body.length) push('…', false);
  return { at, segments };
}
