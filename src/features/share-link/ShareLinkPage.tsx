import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { ApiCallError } from '../../../common/api/failure';
import type { LinkSummary, LinkVisit } from '../../../common/api/sharing';
import { LINK_CODE_LENGTH } from '../../../common/api/sharing';
import { AntdFrame } from '../../components/antd-frame';
import { PageLoading } from '../../components/PageLoading';
import { plainLazy } from '../../components/plain-lazy';
import { LINK_PAGE_TAKEOVER_MARK, type ServedLinkPage } from '../../../common/link-page/served';
import { linkSummary, openLink } from '../../lib/data/link-visit';
import { linkToast } from '../../lib/link-api';
import { rememberLinkPage } from '../../lib/link-return';
import { logoUrl, systemConfigAtom } from '../../lib/system-config';
import { usePhone } from '../../lib/use-phone';
import { LinkCodeForm, LinkGone, LinkNote, LinkOpening, LinkPageShell } from './link-page-views';
import { LinkSummaryCard } from './LinkSummaryCard';

// The opened link (list, breadcrumb, preview) loads while the code is typed, not with the code page.
const OpenedLink = plainLazy(() => import('./OpenedLink'), (m) => m.default);

/** Codes whose answer the page shows itself (not as a toast). */
const LINK_CODES: readonly string[] = [ERRORS.LINK_INVALID.code, ERRORS.LINK_GONE.code, ERRORS.LINK_TOO_MANY_ATTEMPTS.code, ERRORS.LINK_VISIT_EXPIRED.code];

type State =
  | { kind: 'loading' }
  | { kind: 'code'; summary: LinkSummary | null; error: string | null }
  /** A link without a code, opening (its summary shown meanwhile, as the server's page showed it). */
  | { kind: 'opening'; summary: LinkSummary }
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
 * Whether the page's first render is the server's drawing of `served` (src/link-main.tsx hydrates it
 * then): not when this tab has the link open already (a reload), which starts on the opened link.
 */
export const startsFromServedPage = (token: string): boolean => savedVisit(token) === null;

/** Where the page starts: the tab's open visit, else what the server wrote into the page, else nothing yet. */
function firstState(token: string, served: ServedLinkPage | null): State {
  const visit = savedVisit(token);
  if (visit) return { kind: 'open', visit };
  if (!served) return { kind: 'loading' };
  if ('gone' in served) return { kind: 'gone' };
  return served.summary.needCode ? { kind: 'code', summary: served.summary, error: null } : { kind: 'opening', summary: served.summary };
}

/** While the code is typed, not while the page paints (nor within the bench's look at what the code page loaded). */
const preloadOpenedLink = () => window.setTimeout(() => (window.requestIdleCallback ?? ((fn: () => void) => fn()))(() => void OpenedLink.preload()), 1000);

/**
 * The visitor's page of a share link (/shareLink/<token>; /downLoadM/<token> on phones; /openShareLink
 * inside the app). First who shared what, until when (LinkSummary: nothing of the contents) with the
 * extraction code; then the shared file or folder tree with preview, download (one file, or a ZIP of a
 * selection or folder) and, for a visitor signed in to the tenant, save to 个人文件. No login needed
 * (a 401 — an expired session saving — goes to /login and comes back); no page it
 * leads to offers the internal login. The page sends no referrer anywhere (its address holds the token).
 * On the link pages the server has usually drawn the summary and the code entry already (`served`,
 * server/routes/link-page-html.ts): this takes them over as they are, with what was typed meanwhile.
 */
export function ShareLinkPage({ token, compact = false, inApp = false, served = null }: { token: string; compact?: boolean; inApp?: boolean; served?: ServedLinkPage | null }) {
  const phone = usePhone();
  const tight = compact || phone;
  const config = useAtomValue(systemConfigAtom);
  const [state, setState] = useState<State>(() => firstState(token, served));
  // The first render is the server's page as it was drawn (hydrated: the same elements, src/link-main.tsx);
  // what was typed into its entry meanwhile is picked up once it is this page's.
  const [live, setLive] = useState(!served);
  const [code, setCode] = useState('');
  const codeInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  useLayoutEffect(() => {
    if (live) return;
    setLive(true);
    // Hydration keeps what the input holds (the code typed before the script came); the caret goes on where it was.
    const typed = codeInput.current?.value.trim().slice(0, LINK_CODE_LENGTH) ?? '';
    if (typed) {
      setCode(typed);
      codeInput.current?.setSelectionRange(typed.length, typed.length);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at takeover
  }, []);

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
      else setState((s) => (s.kind === 'loading' || s.kind === 'opening' ? { kind: 'code', summary, error: null } : s));
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
        preloadOpenedLink();
      } else await open(undefined, summary);
    } catch (e) {
      if (errorCode(e) === ERRORS.LINK_GONE.code) setState({ kind: 'gone' });
      // A 401 is on its way to /login?redirect=; anything else: try again.
      else if ((e as ApiCallError).status !== 401) setState({ kind: 'failed' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `open` only reads the token
  }, [token]);

  useEffect(() => {
    if (state.kind === 'loading') void start();
    else if (state.kind === 'opening') void open(undefined, state.summary);
    else if (state.kind === 'code') {
      if (served) performance.mark(LINK_PAGE_TAKEOVER_MARK);
      preloadOpenedLink();
    }
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
    <LinkPageShell compact={compact} open={state.kind === 'open'} logo={logoUrl(config)} brandName={config.brandName}>
      {body}
    </LinkPageShell>
  );

  // The same screen as link.html's before any script ran: nothing moves until there is something to say.
  if (state.kind === 'loading') return <PageLoading />;
  if (state.kind === 'gone') return shell(<LinkGone />);
  if (state.kind === 'failed') {
    return shell(
      <LinkNote kind="error" title="暂时无法打开该链接" testId="link-failed">
        请检查网络后
        <button type="button" className="lp-btn lp-btn-link" onClick={() => void start()}>
          重试
        </button>
      </LinkNote>,
    );
  }
  if (state.kind === 'opening') {
    return shell(
      <>
        <LinkSummaryCard summary={state.summary} />
        <LinkOpening />
      </>,
    );
  }
  if (state.kind === 'code') {
    const submit = () => code.length === LINK_CODE_LENGTH && !busy && void open(code, state.summary);
    return shell(
      <>
        {state.summary && <LinkSummaryCard summary={state.summary} />}
        <LinkCodeForm code={code} busy={busy} error={state.error} live={live} inputRef={codeInput} onCode={setCode} onSubmit={submit} />
      </>,
    );
  }
  return shell(
    <AntdFrame>
      <OpenedLink visit={state.visit} compact={tight} inApp={inApp} onLost={lost} onLeft={setLeft} onSaved={(n) => linkToast('success', `已保存 ${n} 项到个人文件`)} />
    </AntdFrame>,
  );
}
