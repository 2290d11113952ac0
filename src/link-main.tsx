/**
 * The lean entry of the pages an outsider opens from a share link (link.html: /shareLink/<token>,
 * /downLoadM/<token>, /downloadExceeded; the server picks it by common/api/sharing.ts linkEntryOf).
 * None of the internal app's boot: no session or menu, no offline data layer, no service worker (a
 * visitor gets no copy of the internal app), no route guard. What the page shows first is asked for
 * here, before React renders: the link's summary and the brand, side by side — unless the server drew
 * the page into link.html already (server/routes/link-page-html.ts), which React then hydrates: its
 * markup is the page's own views' (drawn by the build, common/link-page/template.ts), so the elements
 * the visitor sees (and types into) stay; nothing is replaced.
 */
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { getDefaultStore } from 'jotai';
import { CONFIG } from '../common/api/endpoints/config';
import { linkEntryOf } from '../common/api/sharing';
import { LINK_PAGE_DATA_ID, servedLinkPageOf } from '../common/link-page/served';
import { LinkApp } from './app/LinkApp';
import { startsFromServedPage } from './features/share-link/ShareLinkPage';
import { savedAccount } from './lib/data/account';
import { prefetchLinkSummary } from './lib/data/link-visit';
import { DEFAULT_HOME_URL, isSafeRelativeUrl } from './lib/home-url';
import { linkApi } from './lib/link-api';
import { systemConfigAtom } from './lib/system-config';

document.documentElement.dataset.build = import.meta.env.VITE_BUILD_ID ?? '';

const entry = linkEntryOf(window.location.pathname);
// The server usually drew the link's page already, with its summary and the brand (no call needed).
const served = entry && entry.page !== 'downloadExceeded' ? servedLinkPageOf(document.getElementById(LINK_PAGE_DATA_ID)?.textContent, entry.token) : null;
if (served) getDefaultStore().set(systemConfigAtom, served.config);
else if (entry && entry.page !== 'downloadExceeded') prefetchLinkSummary(entry.token);

// Spec §2: a member whose home is not 个人文件 has no link pages (the app's route says /error too).
if (entry && entry.page === 'shareLink' && savedAccount()) {
  linkApi
    .call(CONFIG.homeUrl, undefined, { onError: () => undefined })
    .then((url) => isSafeRelativeUrl(url) && url.split('?')[0] !== DEFAULT_HOME_URL && window.location.replace('/error'))
    .catch(() => undefined);
}

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from link.html');

// The brand, asked beside the summary (which the page waits for before it shows anything but the
// loading screen): by then it is usually known; without it the page shows the default brand.
if (!served) {
  void linkApi.call(CONFIG.systemConfig, undefined, { onError: () => undefined }).then(
    (config) => {
      getDefaultStore().set(systemConfigAtom, config);
      if (config.brandName) document.title = `${config.brandName} · 分享`;
    },
    () => undefined,
  );
}

const app = (
  <StrictMode>
    <LinkApp served={served} />
  </StrictMode>
);
// A tab that has the link open already (a reload) starts on the opened link: the server's drawing is replaced.
if (served && startsFromServedPage(served.token)) {
  hydrateRoot(container, app, {
    // The server's markup and React's differ (React then draws the page anew): say so, tests listen for it.
    onRecoverableError: (error) => console.error('link page: the server-drawn page did not hydrate', error),
  });
} else createRoot(container).render(app);
