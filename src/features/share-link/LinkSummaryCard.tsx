import type { LinkSummary } from '../../../common/api/sharing';
import { LINK_PAGE_PAINT_MARK } from '../../../common/link-page/served';
import { linkSummaryText } from '../../../common/link-page/summary-text';
import { FileKindIcon } from '../../components/FileKindIcon';

/** Chromium's Element Timing names the file's first paint (React's types do not list the attribute). */
const PAINT_TIMED = { elementtiming: LINK_PAGE_PAINT_MARK } as Record<string, string>;

/**
 * Who shared what, until when: the link page before the code (what it may say is decided on the
 * server, common/api/sharing.ts LinkSummary: never what a folder holds). The server writes the same
 * markup into link.html (server/routes/link-page-html.ts), which this takes over without a move.
 */
export function LinkSummaryCard({ summary }: { summary: LinkSummary }) {
  const text = linkSummaryText(summary);
  return (
    <section data-testid="link-summary" aria-label="分享的内容" className="lp-summary">
      <div className="lp-who">
        <span aria-hidden className="lp-initial">
          {text.initial}
        </span>
        <div className="lp-who-text">
          <strong data-testid="link-sharer" className="lp-sharer">
            {text.sharer}
          </strong>
          <span className="lp-muted">{text.shared}</span>
        </div>
      </div>
      <div className="lp-file">
        <span className="lp-kind">
          <FileKindIcon kind={summary.kind} size={36} />
        </span>
        <div className="lp-file-text">
          <div data-testid="link-file-name" className="lp-file-name" {...PAINT_TIMED}>
            {summary.name}
          </div>
          <div className="lp-file-meta">{text.detail}</div>
        </div>
      </div>
      <div data-testid="link-expiry" className="lp-expiry">
        {text.expiry}
      </div>
    </section>
  );
}
