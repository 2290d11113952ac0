import sanitizeHtml from 'sanitize-html';
import { NOTICE_HTML_ALLOWED, NOTICE_SUMMARY_LENGTH } from '../../../common/api/notices';

/**
 * A notice's rich text as it is stored and served: only the tags and attributes of
 * NOTICE_HTML_ALLOWED (sanitize-html, which parses like a browser: unclosed, nested and
 * malformed markup cannot smuggle a script through). Links keep http(s)/mailto addresses only and
 * always open in a new tab without access to this page (rel="noopener noreferrer").
 */
export function sanitizeNoticeHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...NOTICE_HTML_ALLOWED.tags],
    allowedAttributes: NOTICE_HTML_ALLOWED.attributes,
    allowedSchemes: [...NOTICE_HTML_ALLOWED.schemes],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // The text of script/style/textarea… goes with them (sanitize-html's default nonTextTags).
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...(attribs.href ? { href: attribs.href } : {}), target: '_blank', rel: 'noopener noreferrer' } }),
    },
  }).trim();
}

/** The notice's words without markup, collapsed, for lists, search and desktop notifications. */
export function noticeSummary(html: string): string {
  const text = sanitizeHtml(html.replace(/<\/(p|li|h[1-4]|blockquote|pre)>|<br\s*\/?>/gi, '$& '), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > NOTICE_SUMMARY_LENGTH ? `${text.slice(0, NOTICE_SUMMARY_LENGTH - 1)}…` : text;
}

/** Whether sanitised HTML says anything (an editor's empty `<p></p>` does not). */
export function hasText(html: string): boolean {
  return noticeSummary(html) !== '';
}
