import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LINK_PAGE_DATA_ID, LINK_PAGE_SLOT_END, LINK_PAGE_SLOT_START, type ServedLinkPage } from '../../common/link-page/served';
import { fillLinkPage, LINK_PAGE_TEMPLATE_FILE, type LinkPageTemplates } from '../../common/link-page/template';

/**
 * A share link's page written at request time (issue 44 item 6): the built link.html with, in its
 * #root, the page the visitor would otherwise wait for the script bundle and the summary call to draw
 * — the brand, who shared what until when, and the code entry (or the link's end) — with its
 * stylesheet inline. It paints on the HTML alone. The markup is the link page's own React views', drawn
 * by the build with marks for the link's words (common/link-page/template.ts), so the link pages' entry
 * (src/link-main.tsx) hydrates it from the data block after #root: the same elements, nothing replaced
 * (tests/e2e/comfort-links.test.ts checks they are the same nodes and nothing moves).
 * Every text from the database is escaped; the data block is JSON with `<` escaped.
 */
export interface LinkPageTemplate {
  /** link.html up to the slot, and after it. */
  head: string;
  tail: string;
  /** The first screens with their marks, as the build drew them. */
  pages: LinkPageTemplates;
}

/** The built link.html split at its slot, or null when the build has none (an older build: the page draws itself). */
export function loadLinkPageTemplate(staticDir: string): LinkPageTemplate | null {
  const htmlPath = path.join(staticDir, 'link.html');
  const pagesPath = path.join(staticDir, LINK_PAGE_TEMPLATE_FILE);
  if (!existsSync(htmlPath) || !existsSync(pagesPath)) return null;
  const html = readFileSync(htmlPath, 'utf8');
  const start = html.indexOf(LINK_PAGE_SLOT_START);
  const end = html.indexOf(LINK_PAGE_SLOT_END);
  if (start < 0 || end < start || !html.includes('</body>', end)) return null;
  return { head: html.slice(0, start), tail: html.slice(end + LINK_PAGE_SLOT_END.length), pages: JSON.parse(readFileSync(pagesPath, 'utf8')) as LinkPageTemplates };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text and attribute values: every character HTML gives a meaning escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** JSON inside a script element: `<` can neither close it nor open a comment; U+2028/9 kept out of sight. */
const jsonForScript = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** link.html with the link's page drawn in. `compact`: the phone page (/downLoadM). */
export function renderLinkPage(template: LinkPageTemplate, served: ServedLinkPage, compact: boolean): string {
  // Outside #root, which holds exactly what React renders there (hydration matches it node for node).
  const data = `<script type="application/json" id="${LINK_PAGE_DATA_ID}">${jsonForScript(served)}</script>`;
  const head = served.config.brandName ? template.head.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(served.config.brandName)} · 分享</title>`) : template.head;
  return head + fillLinkPage(template.pages, served, compact) + template.tail.replace('</body>', () => `${data}</body>`);
}
