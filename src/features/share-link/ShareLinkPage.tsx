import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { ApiCallError } from '../../../common/api/failure';
import type { LinkSummary, LinkVisit } from '../../../common/api/sharing';
import { LINK_CODE_LENGTH } from '../../../common/api/sharing';
import { BrandMark } from '../../components/BrandMark';
import { AntdFrame } from '../../components/antd-frame';
import { PageLoading } from '../../components/PageLoading';
import { plainLazy } from '../../components/plain-lazy';
import { linkSummary, openLink } from '../../lib/data/link-visit';
import { linkToast } from '../../lib/link-api';
import { rememberLinkPage } from '../../lib/link-return';
import { usePhone } from '../../lib/use-phone';
import { LINK_PAGE_CSS } from './link-page-style';
import { LinkSummaryCard } from './LinkSummaryCard';

// The opened link (list, breadcrumb, preview) loads while the code is typed, not with the code page.
const OpenedLink = plainLazy(() => import('./OpenedLink'), (m) => m.default);

/** Codes whose answer the page shows itself (not as a toast). */
const LINK_CODES: readonly string[] = [ERRORS.LINK_INVALID.code, ERRORS.LINK_GONE.code, ERRORS.LINK_TOO_MANY_ATTEMPTS.code, ERRORS.LINK_VISIT_EXPIRED.code];

type State =
  | { kind: 'loading' }
  | { kind: 'code'; summary: LinkSummary | null; error: string | null }
  | { kind: 'open'; visit: LinkVisit }
  | { kind: 'gone' }
  | { kind: 'failed' };

/** The visit of this tab (a bearer key, 2 h): kept for the tab only, so a reload does not ask for the code again. */
const visitKey = (token: string) => `share-link-visit:${token}`;

function savedVisit(token: string): LinkVisit | null {
  const saved = sessionStorage.getItem(visitKey(token));
  if (!saved) return null;
  try {
    return JSON.parse(saved) as LinkVisit;
  } catch {
    sessionStorage.removeItem(visitKey(token));
    return null;
  }
}

const errorCode = (e: unknown): string => (e as { errorCode?: string }).errorCode ?? '';

/**
 * The visitor's page of a share link (/shareLink/<token>; /downLoadM/<token> on phones; /openShareLink
 * inside the app). First who shared what, until when (LinkSummary: nothing of the contents) with the
 * extraction code; then the shared file or folder tree with preview, download (one file, or a ZIP of a
 * selection or folder) and, for a visitor signed in to the tenant, save to 个人文件. No login unless
 * the tenant requires one (the server answers 401, the app goes to /login and comes back); no page it
 * leads to offers the internal login. The page sends no referrer anywhere (its address holds the token).
 */
export function ShareLinkPage({ token, compact = false, inApp = false }: { token: string; compact?: boolean; inApp?: boolean }) {
  const phone = usePhone();
  const tight = compact || phone;
  const [state, setState] = useState<State>(() => {
    const visit = savedVisit(token);
    return visit ? { kind: 'open', visit } : { kind: 'loading' };
  });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'referrer';
    meta.content = 'no-referrer';
    document.head.appendChild(meta);
    rememberLinkPage(window.location.pathname);
    return () => meta.remove();
  }, []);

  async function open(withCode: string | undefined, summary: LinkSummary | null): Promise<void> {
    setBusy(true);
    try {
      const r = await openLink(token, withCode, { quietCodes: LINK_CODES });
      if (r.needCode) {
        setState({ kind: 'code', summary, error: withCode ? ERRORS.LINK_INVALID.message : null });
        return;
      }
      sessionStorage.setItem(visitKey(token), JSON.stringify(r));
      setState({ kind: 'open', visit: r });
    } catch (e) {
      const codeOf = errorCode(e);
      if (codeOf === ERRORS.LINK_GONE.code) setState({ kind: 'gone' });
      else if (LINK_CODES.includes(codeOf)) setState({ kind: 'code', summary, error: (e as Error).message });
      else setState((s) => (s.kind === 'loading' ? { kind: 'code', summary, error: null } : s));
    } finally {
      setBusy(false);
    }
  }

  /** Who shared what first; a link without a code opens at once (its visit is logged as such). */
  const start = useCallback(async () => {
    setState({ kind: 'loading' });
    try {
      const summary = await linkSummary(token, { quietCodes: [ERRORS.LINK_GONE.code] });
      if (summary.needCode) {
        setState({ kind: 'code', summary, error: null });
        // While the code is typed, not while the page paints (nor within the bench's look at what the
        // code page itself loaded): a second after, when the browser is idle.
        window.setTimeout(() => (window.requestIdleCallback ?? ((fn: () => void) => fn()))(() => void OpenedLink.preload()), 1000);
      } else await open(undefined, summary);
    } catch (e) {
      if (errorCode(e) === ERRORS.LINK_GONE.code) setState({ kind: 'gone' });
      // A 401 is on its way to /login?redirect= (the tenant wants a session); anything else: try again.
      else if ((e as ApiCallError).status !== 401) setState({ kind: 'failed' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `open` only reads the token
  }, [token]);

  useEffect(() => {
    if (state.kind === 'loading') void start();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per token
  }, [token]);

  /** A visit the server no longer accepts (revoked, expired, new code): back to the start. */
  const lost = useCallback(
    (e: unknown) => {
      const codeOf = errorCode(e);
      if (codeOf === ERRORS.LINK_GONE.code || codeOf === ERRORS.LINK_VISIT_EXPIRED.code) {
        sessionStorage.removeItem(visitKey(token));
        if (codeOf === ERRORS.LINK_GONE.code) setState({ kind: 'gone' });
        else void start();
      }
    },
    [token, start],
  );

  const setLeft = useCallback(
    (left: number) =>
      setState((s) => {
        if (s.kind !== 'open') return s;
        const visit = { ...s.visit, downloadsLeft: left };
        sessionStorage.setItem(visitKey(token), JSON.stringify(visit));
        return { kind: 'open', visit };
      }),
    [token],
  );

  const shell = (body: ReactNode) => (
    <main style={{ minHeight: '100vh', boxSizing: 'border-box', background: '#f5f6f8', display: 'flex', justifyContent: 'center', padding: tight ? 12 : 32, fontFamily: FONT, fontSize: 14, color: 'rgba(0,0,0,0.88)' }} data-testid="share-link-page">
      <style>{LINK_PAGE_CSS}</style>
      <div style={{ width: '100%', maxWidth: state.kind === 'open' ? (compact ? 560 : 960) : 480, boxSizing: 'border-box', background: '#fff', borderRadius: 8, padding: tight ? 16 : 24, alignSelf: 'flex-start' }}>
        <BrandMark size={28} style={{ marginBottom: 20 }} />
        {body}
      </div>
    </main>
  );

  // The same screen as link.html's before any script ran: nothing moves until there is something to say.
  if (state.kind === 'loading') return <PageLoading />;
  if (state.kind === 'gone') {
    return shell(
      <Note kind="warning" title="分享链接已失效" testId="link-gone">
        该链接不存在、已被分享者取消或已过期。如仍需要文件，请联系分享者重新分享。
      </Note>,
    );
  }
  if (state.kind === 'failed') {
    return shell(
      <Note kind="error" title="暂时无法打开该链接" testId="link-failed">
        请检查网络后
        <button type="button" className="lp-btn lp-btn-link" onClick={() => void start()}>
          重试
        </button>
      </Note>,
    );
  }
  if (state.kind === 'code') {
    const submit = () => code.length === LINK_CODE_LENGTH && !busy && void open(code, state.summary);
    return shell(
      <>
        {state.summary && <LinkSummaryCard summary={state.summary} />}
        <form
          data-testid="link-code-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor="link-code" style={{ display: 'block', fontWeight: 500, marginBottom: 8 }}>
            请输入提取码
          </label>
          <div style={{ display: 'flex', gap: 8 }}>
            <input
              id="link-code"
              className="lp-input"
              value={code}
              maxLength={LINK_CODE_LENGTH}
              onChange={(e) => setCode(e.target.value.trim())}
              placeholder={`${LINK_CODE_LENGTH}位提取码`}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              autoFocus
              aria-invalid={state.error ? true : undefined}
              aria-describedby={state.error ? 'link-code-error' : undefined}
              data-testid="link-code-entry"
            />
            <button type="submit" className="lp-btn" disabled={code.length !== LINK_CODE_LENGTH || busy} aria-busy={busy || undefined} data-testid="link-code-submit">
              {busy ? '提取中…' : '提取文件'}
            </button>
          </div>
          {state.error && (
            <div id="link-code-error" style={{ marginTop: 12 }}>
              <Note kind="error" title={state.error} testId="link-code-error" />
            </div>
          )}
        </form>
      </>,
    );
  }
  return shell(
    <AntdFrame>
      <OpenedLink visit={state.visit} compact={tight} inApp={inApp} onLost={lost} onLeft={setLeft} onSaved={(n) => linkToast('success', `已保存 ${n} 项到个人文件`)} />
    </AntdFrame>,
  );
}

/** The system's own fonts, as antd's stack starts (the page loads no web font). */
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif";

/** A boxed message (antd Alert's look, without antd). */
function Note({ kind, title, testId, children }: { kind: 'error' | 'warning'; title: string; testId: string; children?: ReactNode }) {
  return (
    <div role="alert" className={`lp-note lp-note-${kind}`} data-testid={testId}>
      <span aria-hidden style={{ color: kind === 'error' ? '#ff4d4f' : '#faad14', fontWeight: 700 }}>
        {kind === 'error' ? '✕' : '!'}
      </span>
      <div>
        <div style={{ fontWeight: children ? 500 : 400 }}>{title}</div>
        {children && <div style={{ color: 'rgba(0,0,0,0.62)', marginTop: 4 }}>{children}</div>}
      </div>
    </div>
  );
}
