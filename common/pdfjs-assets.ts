/**
 * Where the web build serves pdf.js's data files beside the app (vite.config.ts copies them out of
 * pdfjs-dist; nothing comes from a CDN): the packed CMaps, which CJK PDFs whose fonts are not embedded
 * need to map their text, and the 14 standard fonts. Under assets/ (cached as immutable) and named by
 * pdf.js's version, so a new version never reads an old one's files; not precached by the service
 * worker (only a document preview reads them, and it needs the network for the document anyway).
 */
export function pdfjsAssetBase(version: string): string {
  return `/assets/pdfjs-${version}/`;
}

/** The folders of pdfjs-dist copied there, under the same names. */
export const PDFJS_ASSET_FOLDERS = ['cmaps', 'standard_fonts'] as const;
