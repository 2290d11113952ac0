import type { ReactNode, Ref } from 'react';
import { LINK_CODE_LENGTH } from '../../../common/api/sharing';
import { LINK_PAGE_CSS } from '../../../common/link-page/style';
import { LINK_GONE_TEXT } from '../../../common/link-page/summary-text';
import { BrandMarkView } from '../../components/BrandMark';

/**
 * The parts of a share link's page before it opens, as plain views: ShareLinkPage renders them, and
 * the build draws the first screens with them (src/app/link-page-template.tsx) for the server to fill
 * in, which the link pages' entry then hydrates — one markup for both, so nothing is replaced.
 */

/** The page's frame: its stylesheet, the card and the tenant's brand. `open`: the opened link, wider. */
export function LinkPageShell({ compact, open = false, logo, brandName, children }: { compact: boolean; open?: boolean; logo: string; brandName: string; children: ReactNode }) {
  return (
    <main className={compact ? 'lp-main lp-compact' : 'lp-main'} data-testid="share-link-page">
      <style>{LINK_PAGE_CSS}</style>
      <div className="lp-card" style={open ? { maxWidth: compact ? 560 : 960 } : undefined}>
        <BrandMarkView logo={logo} name={brandName} size={28} style={{ marginBottom: 20 }} />
        {children}
      </div>
    </main>
  );
}

/**
 * The code entry. `live`: its script has taken it over (until then it is the server's: `data-drawn`,
 * which tests and the bench wait to see go, and its submit is off, so HTML's implicit submission does nothing).
 */
export function LinkCodeForm({
  code,
  busy,
  error,
  live,
  inputRef,
  onCode,
  onSubmit,
}: {
  code: string;
  busy: boolean;
  error: string | null;
  live: boolean;
  inputRef?: Ref<HTMLInputElement>;
  onCode: (code: string) => void;
  onSubmit: () => void;
}) {
  return (
    <form
      data-testid="link-code-form"
      data-drawn={live ? undefined : 'server'}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <label htmlFor="link-code" className="lp-label">
        请输入提取码
      </label>
      <div className="lp-row">
        <input
          ref={inputRef}
          id="link-code"
          className="lp-input"
          value={code}
          maxLength={LINK_CODE_LENGTH}
          onChange={(e) => onCode(e.target.value.trim())}
          placeholder={`${LINK_CODE_LENGTH}位提取码`}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'link-code-error' : undefined}
          data-testid="link-code-entry"
        />
        <button type="submit" className="lp-btn" disabled={!live || code.length !== LINK_CODE_LENGTH || busy} aria-busy={busy || undefined} data-testid="link-code-submit">
          {busy ? '提取中…' : '提取文件'}
        </button>
      </div>
      {error && (
        <div id="link-code-error" style={{ marginTop: 12 }}>
          <LinkNote kind="error" title={error} testId="link-code-error" />
        </div>
      )}
    </form>
  );
}

/** A link without a code, opening. */
export function LinkOpening() {
  return (
    <div className="lp-opening" aria-busy="true" data-testid="link-opening">
      <span className="lp-spin" />
      正在打开…
    </div>
  );
}

/** A link revoked, expired or never issued. */
export function LinkGone() {
  return (
    <LinkNote kind="warning" title={LINK_GONE_TEXT.title} testId="link-gone">
      {LINK_GONE_TEXT.detail}
    </LinkNote>
  );
}

/** A boxed message (antd Alert's look, without antd). */
export function LinkNote({ kind, title, testId, children }: { kind: 'error' | 'warning'; title: string; testId: string; children?: ReactNode }) {
  return (
    <div role="alert" className={`lp-note lp-note-${kind}`} data-testid={testId}>
      <span aria-hidden className="lp-note-icon">
        {kind === 'error' ? '✕' : '!'}
      </span>
      <div>
        <div style={{ fontWeight: children ? 500 : 400 }}>{title}</div>
        {children && <div className="lp-note-detail">{children}</div>}
      </div>
    </div>
  );
}
