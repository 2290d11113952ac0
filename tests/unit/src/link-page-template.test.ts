/**
 * A share link's page as the server writes it (the build's templates, filled in) must be, byte for
 * byte, what ShareLinkPage's first render on that page is: the link pages' entry hydrates it, and a
 * production React keeps the server's attributes where they differ (only text differences fail there).
 * (Less the image preload renderToString puts first, which the client does not render: asHydrated.)
 * tests/e2e/comfort-links.test.ts checks the takeover in a browser (same nodes, no hydration error).
 */
import { getDefaultStore } from 'jotai';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LinkSummary } from '../../../common/api/sharing';
import type { ServedLinkPage } from '../../../common/link-page/served';
import { fillLinkPage, type LinkPageTemplates } from '../../../common/link-page/template';
import { asHydrated, linkPageTemplates } from '../../../src/app/link-page-template';
import { ShareLinkPage } from '../../../src/features/share-link/ShareLinkPage';
import { systemConfigAtom } from '../../../src/lib/system-config';

const TOKEN = 'A'.repeat(32);
const SUMMARY: LinkSummary = {
  needCode: true,
  sharedBy: { nickName: `<img src=x onerror="alert(1)">&'张三 __lp:name__` },
  name: `</script>$&$'报告 __lp:icon__.txt`,
  isDir: false,
  kind: 'txt',
  size: 12_345,
  expiresAt: Date.UTC(2026, 11, 7, 8, 30),
  previewOnly: true,
};
const CONFIG = { logo: '/api/logo?"x"&y=1', brandName: `演示<企业>"云盘"` };

let templates: LinkPageTemplates;
const configBefore = getDefaultStore().get(systemConfigAtom);
beforeAll(() => {
  // The page reads the tab's open visit (none here).
  vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
  templates = linkPageTemplates();
});
// The stub and jotai's default store would outlive the file in a worker's shared modules (vitest.config.ts).
afterAll(() => {
  vi.unstubAllGlobals();
  getDefaultStore().set(systemConfigAtom, configBefore);
});

/** ShareLinkPage's first render on a page the server drew, as HTML. */
function reactsOwn(served: ServedLinkPage, compact: boolean): string {
  getDefaultStore().set(systemConfigAtom, served.config);
  return asHydrated(renderToString(createElement(ShareLinkPage, { token: served.token, compact, served })));
}

describe("a link's page drawn by the server", () => {
  const cases: [string, ServedLinkPage][] = [
    ['the code entry', { token: TOKEN, summary: SUMMARY, config: CONFIG }],
    ['a folder without a code, opening, no expiry, no logo', { token: TOKEN, summary: { ...SUMMARY, needCode: false, isDir: true, kind: 'folder', size: null, expiresAt: null, previewOnly: false }, config: { logo: '', brandName: 'Brand' } }],
    ['an unknown kind, an empty brand and sharer', { token: TOKEN, summary: { ...SUMMARY, kind: 'nonsense' as LinkSummary['kind'], sharedBy: { nickName: '' } }, config: { logo: '', brandName: '' } }],
    ['a link that ended', { token: TOKEN, gone: true, config: CONFIG }],
  ];
  for (const [name, served] of cases) {
    for (const compact of [false, true]) {
      it(`is React's own markup: ${name}${compact ? ', tight' : ''}`, () => {
        const html = fillLinkPage(templates, served, compact);
        expect(html).toBe(reactsOwn(served, compact));
        expect(html).not.toMatch(/__lp:(?!name__|icon__)/);
      });
    }
  }
});
