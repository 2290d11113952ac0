import type { FileKind } from '../api/types';
import { fileKindLook } from '../files/kind-look';
import type { ServedLinkPage } from './served';
import { linkSummaryText, type LinkSummaryText } from './summary-text';

/**
 * A share link's first screen as the server writes it into link.html (issue 44 item 6), drawn once at
 * build time by the same React components the link pages' entry renders (src/app/link-page-template.tsx,
 * written beside link.html as LINK_PAGE_TEMPLATE_FILE), with marks where a link's own words go. The
 * server fills the marks in (fillLinkPage) and the entry hydrates the result (src/link-main.tsx): the
 * markup is React's own, so the takeover replaces nothing. Only text and attribute values are left
 * to the server, escaped as React escapes them; the kind's icon is one of the build's renderings.
 */

/** The three first screens: the code entry, a link without a code opening, a link that ended. */
export type LinkPageShape = 'code' | 'opening' | 'gone';

export interface LinkPageTemplates {
  /** Each shape's markup, wide (/shareLink) and tight (/downLoadM). */
  pages: Record<LinkPageShape, { wide: string; compact: string }>;
  /** Each kind's icon as FileKindIcon draws it on the summary (36 px). */
  icons: Record<FileKind, string>;
}

/** Written by the build beside link.html. */
export const LINK_PAGE_TEMPLATE_FILE = 'link-page-template.json';

type Hole = 'logo' | 'brand' | keyof LinkSummaryText | 'name' | 'icon';

/** The mark the build draws in place of a value: nothing React escapes, nothing a stylesheet holds. */
export const linkPageHole = (hole: Hole): string => `__lp:${hole}__`;
const HOLES = /__lp:([a-z]+)__/g;

/** The default logo (src/lib/system-config.ts DEFAULT_LOGO) where the tenant has none. */
const DEFAULT_LOGO = '/favicon.svg';

// React's own escaping of text and attribute values (react-dom's escapeTextForBrowser).
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const escape = (text: string): string => text.replace(/[&"'<>]/g, (c) => ESCAPES[c]!);

export const linkPageShapeOf = (served: ServedLinkPage): LinkPageShape => ('gone' in served ? 'gone' : served.summary.needCode ? 'code' : 'opening');

/** The link's first screen, its marks filled in; in one pass, so a value holding a mark stays text. */
export function fillLinkPage(templates: LinkPageTemplates, served: ServedLinkPage, compact: boolean): string {
  const values: Partial<Record<Hole, string>> = { logo: served.config.logo || DEFAULT_LOGO, brand: served.config.brandName };
  let icon = '';
  if (!('gone' in served)) {
    Object.assign(values, linkSummaryText(served.summary), { name: served.summary.name });
    icon = templates.icons[fileKindLook(served.summary.kind).kind];
  }
  const page = templates.pages[linkPageShapeOf(served)][compact ? 'compact' : 'wide'];
  return page.replace(HOLES, (mark, hole: string) => {
    if (hole === 'icon') return icon;
    const value = values[hole as Hole];
    if (value === undefined) throw new Error(`link page: nothing for ${mark}`);
    return escape(value);
  });
}
