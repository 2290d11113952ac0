/**
 * The text store of search inside files (issue 41): docrend's pipeline hands each blob's extracted
 * text here once (texts are per blob, deduplicated as blobs are); the full-text index follows it
 * (migration 0098), and the tenant's sensitive keywords are checked as it arrives. Who may find a
 * text is never stored: it is the files that reference the blob (content-search.ts).
 */
import type { ContentTextRepository } from '../../repositories/content-text-repository';
import { findKeywords, keywordsHash } from './text-scan';

/** Longer texts are cut here (and marked truncated): the index and the snippets stay bounded. */
export const CONTENT_TEXT_MAX_CHARS = 1_000_000;

export interface PutTextInput {
  text: string;
  /**
   * Where each page begins, as offsets (JavaScript string indices) into `text`, ascending, the first
   * 0 — for PDFs and Office renditions; absent or null for texts without pages.
   */
  pageStarts?: readonly number[] | null;
}

export interface PutTextResult {
  /** False when the blob was deleted meanwhile: nothing was stored. */
  stored: boolean;
  chars: number;
  truncated: boolean;
  /** The tenant's sensitive keywords found in the text. */
  sensitiveKeywords: string[];
}

export interface ContentTextServiceDeps {
  repo: ContentTextRepository;
  /** The tenant's sensitive keywords now (文件安全). */
  keywordsOf: (tenantId: string) => Promise<readonly string[]>;
  now?: () => number;
}

export class ContentTextService {
  constructor(private readonly deps: ContentTextServiceDeps) {}

  /**
   * Stores (or replaces) the text of a blob and indexes it. NUL characters (PostgreSQL's text cannot
   * hold them) and lone surrogates become a character of the same length, so offsets hold.
   */
  async putText(blobId: string, input: PutTextInput): Promise<PutTextResult> {
    const tenantId = await this.deps.repo.blobTenant(blobId);
    if (!tenantId) return { stored: false, chars: 0, truncated: false, sensitiveKeywords: [] };
    const truncated = input.text.length > CONTENT_TEXT_MAX_CHARS;
    const body = wellFormed(truncated ? input.text.slice(0, CONTENT_TEXT_MAX_CHARS) : input.text).replaceAll('\u0000', ' ');
    const pageStarts = normalizePageStarts(input.pageStarts, body.length);
    const keywords = await this.deps.keywordsOf(tenantId);
    const hits = findKeywords(body, pageStarts, keywords);
    const now = this.deps.now?.() ?? Date.now();
    const stored = await this.deps.repo.put({ blobId, tenantId }, { body, pageStarts, truncated }, { hash: keywordsHash(keywords), hits }, now);
    return { stored, chars: body.length, truncated, sensitiveKeywords: stored ? hits.map((h) => h.keyword) : [] };
  }

  /** Drops a blob's text (also done by the database when the blob row goes). */
  async removeBlob(blobId: string): Promise<void> {
    await this.deps.repo.remove(blobId);
  }

  async hasText(blobId: string): Promise<boolean> {
    return this.deps.repo.has(blobId);
  }
}

/** Ascending offsets inside the text, starting at 0; anything else is dropped (no pages rather than wrong ones). */
function normalizePageStarts(raw: readonly number[] | null | undefined, length: number): number[] | null {
  if (!raw || raw.length === 0) return null;
  const out: number[] = [];
  for (const n of raw) {
    if (!Number.isInteger(n) || n < 0 || (out.length > 0 && n < out[out.length - 1]!)) return null;
    if (n > length) break;
    out.push(n);
  }
  if (out.length === 0) return null;
  if (out[0] !== 0) out.unshift(0);
  return out;
}

/** Lone surrogates (a cut pair, a broken extraction) become U+FFFD: same length, valid UTF-8. */
const wellFormed = (text: string): string => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
