import type { ReactNode } from 'react';
import type { LinkSummary } from '../../../common/api/sharing';
import { LINK_PAGE_PAINT_MARK } from '../../../common/link-page/served';
import { linkSummaryText, type LinkSummaryText } from '../../../common/link-page/summary-text';
import { FileKindIcon } from '../../components/FileKindIcon';

/** Chromium's Element Timing names the file's first paint (React's types do not list the attribute). */
const PAINT_TIMED = { elementtiming: LINK_PAGE_PAINT_MARK } as Record<string, string>;

/**
 * Who shared what, until when: the link page before the code (what it may say is decided on the
 * server, common/api/sharing.ts LinkSummary: never what a folder holds).
 */
export function LinkSummaryCard({ summary }: { summary: LinkSummary }) {
  return <LinkSummaryView text={linkSummaryText(summary)} name={summary.name} icon={<FileKindIcon kind={summary.kind} size={36} />} />;
}

/**
 * The card itself, for words given: also drawn at build time with marks for them
 * (src/app/link-page-template.tsx), which the server fills in and the link pages' entry hydrates.
 */
export function LinkSummaryView({ text, name, icon }: { text: LinkSummaryText; name: string; icon: ReactNode }) {
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
        <span className="lp-kind">{icon}</span>
        <div className="lp-file-text">
          <div data-testid="link-file-name" className="lp-file-name" {...PAINT_TIMED}>
            {name}
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
