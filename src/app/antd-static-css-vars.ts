/**
 * antd's CSS variables for the first screens, rendered at build time into index.html (vite.config.ts,
 * `antdCssVarsInHtml`); never part of the app bundle.
 *
 * antd (zero-runtime styles) still inserts, during the first render, one `<style>` per component with
 * that component's CSS variables for the theme. On 个人文件 that is fifteen insertions inside the
 * commit of the first render, each parsed as HTML (`innerHTML`): ~7 ms in all on a plain load, but
 * ~60–100 ms of the longest task under a trace that records stacks (Lighthouse). antd looks for
 * its style by hash before inserting one: rendered here with the same theme (antd-theme.ts names the
 * variables' class), the page's own copies are found and none is inserted.
 *
 * Only the desktop theme with motion: a phone or a reduced-motion system gets other values under
 * another class (cssVarKey), inserted at run time as before; these then match no element.
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import emotionHash from '@emotion/hash';
import { Avatar, Badge, Breadcrumb, Button, ConfigProvider, Dropdown, Input, Layout, Menu, Modal, Tooltip } from 'antd';
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { appTheme, cssVarKey, type ThemeName } from './antd-theme';

// A CommonJS module: loaded by Node (the build, the tests) its default export arrives one level down.
const hash = (emotionHash as unknown as { default?: typeof emotionHash }).default ?? emotionHash;

/**
 * The components of the login page and of 个人文件 whose variables antd inserts when they first
 * render (their `<style data-token-hash>`, read in Chromium). Another component inserts its own at
 * run time, as all did before.
 */
function firstScreens() {
  const span = h('span');
  return h(
    Layout,
    null,
    h(Layout.Sider),
    h(Button),
    h(Badge, { count: 1 }),
    h(Tooltip, { title: '-' }, span),
    h(Avatar),
    h(Dropdown, { menu: { items: [] } }, span),
    h(Breadcrumb, { items: [] }),
    h(Input),
    h(Input.Search),
    h(Modal, { open: false }),
    h(Menu, { items: [] }),
  );
}

/** The `<style>` elements antd would insert for the first screens under `name`'s theme, as HTML. */
export function staticCssVarStyles(name: ThemeName = 'desktop', reducedMotion = false): string {
  const cache = createCache();
  renderToString(h(StyleProvider, { cache }, h(ConfigProvider, { theme: appTheme(name, reducedMotion) }, firstScreens())));
  const key = cssVarKey(name, reducedMotion);
  return (
    extractStyle(cache, { types: ['token', 'cssVar'] })
      // It ends with a map of style paths for hydrating runtime styles; zero-runtime has none.
      .replace(/<style data-ant-cssinjs-cache-path[^>]*>[^<]*<\/style>/, '')
      // The theme's own variables: extractStyle names them by token, but the page looks them up by
      // this hash of the class (@ant-design/cssinjs, useCacheToken).
      .replace(new RegExp(`(<style [^>]*data-css-hash=")[^"]*(">\\.${key}\\{)`), `$1${hash(`css-var-${key}`)}$2`)
  );
}
