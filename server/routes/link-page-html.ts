import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LinkSummary } from '../../common/api/sharing';
import { fileKindLook } from '../../common/files/kind-look';
import { LINK_PAGE_DATA_ID, LINK_PAGE_ICONS_FILE, LINK_PAGE_PAINT_MARK, LINK_PAGE_SLOT_END, LINK_PAGE_SLOT_START, type ServedLinkPage } from '../../common/link-page/served';
import { LINK_PAGE_CSS } from '../../common/link-page/style';
import { LINK_GONE_TEXT, linkSummaryText } from '../../common/link-page/summary-text';
import { LINK_CODE_LENGTH } from '../../common/api/sharing';

/**
 * A share link's page written at request time (issue 44 item 6): the built link.html with, in its
 * #root, the page the visitor would otherwise wait for the script bundle and the summary call to draw
 * — the brand, who shared what until when, and the code entry (or the link's end) — with its
 * stylesheet inline. It paints on the HTML alone; the link pages' entry (src/link-main.tsx) takes it
 * over from the data block beside it. The markup is ShareLinkPage's and LinkSummaryCard's, class for
 * class (common/link-page/style.ts); tests/e2e/comfort-links.test.ts checks nothing moves at takeover.
 * Every text from the database is escaped; the data block is JSON with `<` escaped.
 */
export interface LinkPageTemplate {
  /** link.html up to the slot, and after it. */
  head: string;
  tail: string;
  /** Each file kind's icon (its SVG), as the build rendered it from @ant-design/icons. */
  icons: Record<string, string>;
}

/** The built link.html split at its slot, or null when the build has none (an older build: the page draws itself). */
export function loadLinkPageTemplate(staticDir: string): LinkPageTemplate | null {
  const htmlPath = path.join(staticDir, 'link.html');
  const iconsPath = path.join(staticDir, LINK_PAGE_ICONS_FILE);
  if (!existsSync(htmlPath) || !existsSync(iconsPath)) return null;
  const html = readFileSync(htmlPath, 'utf8');
  const start = html.indexOf(LINK_PAGE_SLOT_START);
  const end = html.indexOf(LINK_PAGE_SLOT_END);
  if (start < 0 || end < start) return null;
  return { head: html.slice(0, start), tail: html.slice(end + LINK_PAGE_SLOT_END.length), icons: JSON.parse(readFileSync(iconsPath, 'utf8')) as Record<string, string> };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text and attribute values: every character HTML gives a meaning escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** JSON inside a script element: `<` can neither close it nor open a comment; U+2028/9 kept out of sight. */
const jsonForScript = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function brand(config: ServedLinkPage['config']): string {
  const logo = config.logo || '/favicon.svg';
  return (
    `<span style="display:inline-flex;align-items:center;gap:10px;margin-bottom:20px" data-testid="brand">` +
    `<img src="${escapeHtml(logo)}" alt="" width="28" height="28" style="object-fit:contain">` +
    `<span style="font-size:15.68px;font-weight:600;white-space:nowrap">${escapeHtml(config.brandName)}</span></span>`
  );
}

function kindIcon(summary: LinkSummary, icons: Record<string, string>): string {
  const look = fileKindLook(summary.kind);
  const label = escapeHtml(look.label);
  return (
    `<span class="lp-kind"><span role="img" aria-label="${label}" title="${label}" data-testid="file-kind-icon" data-kind="${look.kind}" style="position:relative;display:inline-flex;line-height:1;flex:none">` +
    `<span role="img" aria-hidden="true" class="anticon" style="color:${look.color};font-size:36px">${icons[look.kind] ?? ''}</span></span></span>`
  );
}

function summaryCard(summary: LinkSummary, icons: Record<string, string>): string {
  const text = linkSummaryText(summary);
  return (
    `<section data-testid="link-summary" aria-label="分享的内容" class="lp-summary">` +
    `<div class="lp-who"><span aria-hidden="true" class="lp-initial">${escapeHtml(text.initial)}</span>` +
    `<div class="lp-who-text"><strong data-testid="link-sharer" class="lp-sharer">${escapeHtml(text.sharer)}</strong><span class="lp-muted">${escapeHtml(text.shared)}</span></div></div>` +
    `<div class="lp-file">${kindIcon(summary, icons)}<div class="lp-file-text"><div data-testid="link-file-name" class="lp-file-name" elementtiming="${LINK_PAGE_PAINT_MARK}">${escapeHtml(summary.name)}</div>` +
    `<div class="lp-file-meta">${escapeHtml(text.detail)}</div></div></div>` +
    `<div data-testid="link-expiry" class="lp-expiry">${escapeHtml(text.expiry)}</div></section>`
  );
}

// Its submit stays disabled until the page's script takes over (HTML's implicit submission does nothing then);
// `data-drawn` tells this form from the script's (tests and the bench wait for the takeover by it).
const CODE_FORM =
  `<form data-testid="link-code-form" data-drawn="server"><label for="link-code" class="lp-label">请输入提取码</label><div class="lp-row">` +
  `<input id="link-code" class="lp-input" maxlength="${LINK_CODE_LENGTH}" placeholder="${LINK_CODE_LENGTH}位提取码" autocomplete="off" autocapitalize="off" spellcheck="false" autofocus data-testid="link-code-entry">` +
  `<button type="submit" class="lp-btn" disabled data-testid="link-code-submit">提取文件</button></div></form>`;

const OPENING = `<div class="lp-opening" aria-busy="true" data-testid="link-opening"><span class="lp-spin"></span>正在打开…</div>`;

const GONE =
  `<div role="alert" class="lp-note lp-note-warning" data-testid="link-gone"><span aria-hidden="true" class="lp-note-icon">!</span>` +
  `<div><div style="font-weight:500">${escapeHtml(LINK_GONE_TEXT.title)}</div><div class="lp-note-detail">${escapeHtml(LINK_GONE_TEXT.detail)}</div></div></div>`;

/** link.html with the link's page drawn in. `compact`: the phone page (/downLoadM). */
export function renderLinkPage(template: LinkPageTemplate, served: ServedLinkPage, compact: boolean): string {
  const body = 'gone' in served ? GONE : summaryCard(served.summary, template.icons) + (served.summary.needCode ? CODE_FORM : OPENING);
  const page =
    `<style>${LINK_PAGE_CSS}</style><main class="${compact ? 'lp-main lp-compact' : 'lp-main'}" data-testid="share-link-page"><div class="lp-card">` +
    brand(served.config) +
    body +
    `</div></main><script type="application/json" id="${LINK_PAGE_DATA_ID}">${jsonForScript(served)}</script>`;
  const head = served.config.brandName ? template.head.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(served.config.brandName)} · 分享</title>`) : template.head;
  return head + page + template.tail;
}
