import type { LinkSummary } from '../api/sharing';
import type { SystemConfig } from '../api/types';

/**
 * A share link's page as the server writes it into link.html at request time (issue 44 item 6: it
 * paints with the sharer and the file before any script has loaded; server/routes/link-page-html.ts),
 * and how the link pages' entry (src/link-main.tsx) takes it over.
 */

/**
 * What the server knew, in `<script type="application/json" id={LINK_PAGE_DATA_ID}>` (a data block: never
 * run): exactly what the summary and system-config calls answer a visitor without a session, nothing more.
 */
export type ServedLinkPage = ({ token: string; summary: LinkSummary } | { token: string; gone: true }) & { config: SystemConfig };

export const LINK_PAGE_DATA_ID = 'link-page-data';

/**
 * How the delivery bench reads the page in the browser's own clock: the file's name carries this as
 * its `elementtiming` (Chromium's Element Timing: when it was first painted), and the page marks it
 * (`performance.mark`) when its script has taken the code entry over.
 */
export const LINK_PAGE_PAINT_MARK = 'link-file-name';
export const LINK_PAGE_TAKEOVER_MARK = 'link-page-taken-over';

/** link.html's #root holds its loading screen between these: the server puts the page there. */
export const LINK_PAGE_SLOT_START = '<!--link-page:start-->';
export const LINK_PAGE_SLOT_END = '<!--link-page:end-->';

/** The served page's data, or null (none, or not this token's: a page the app navigated to). */
export function servedLinkPageOf(json: string | null | undefined, token: string): ServedLinkPage | null {
  if (!json) return null;
  try {
    const served = JSON.parse(json) as ServedLinkPage;
    return served && served.token === token ? served : null;
  } catch {
    return null;
  }
}
