import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { NOTICE_HTML_ALLOWED } from '../../../common/api/notices';

/**
 * A notice's rich text. The server keeps only NOTICE_HTML_ALLOWED when it is saved; the page
 * sanitises again with the same allow-list (DOMPurify) before rendering, so a backend that does not
 * (the client may point elsewhere) still cannot put a script or a handler into the page.
 */
export function NoticeContent({ html, testId }: { html: string; testId?: string }) {
  const clean = useMemo(
    () =>
      DOMPurify.sanitize(html, {
        ALLOWED_TAGS: [...NOTICE_HTML_ALLOWED.tags],
        ALLOWED_ATTR: ['href', 'target', 'rel'],
        ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
      }),
    [html],
  );
  return <div className="nt-content" data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}
