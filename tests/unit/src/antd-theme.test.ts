/**
 * The app's antd theme looks its map tokens up instead of deriving them at first render: the table
 * must be exactly what the installed antd derives, for every theme the app uses, and it must be what
 * a ConfigProvider with the app's theme actually asks for.
 */
import { ConfigProvider, theme } from 'antd';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appTheme, precomputedAlgorithm, seedOf, THEME_TOKENS, type ThemeName } from '../../../src/app/antd-theme';

const NAMES = Object.keys(THEME_TOKENS) as ThemeName[];

afterEach(() => vi.restoreAllMocks());

describe('the precomputed antd theme', () => {
  it('is what the installed antd derives (after an antd upgrade, `-u` writes it again)', async () => {
    const table = Object.fromEntries(NAMES.map((name) => [name, theme.defaultAlgorithm(seedOf(THEME_TOKENS[name]))]));
    await expect(`${JSON.stringify(table, null, 1)}\n`).toMatchFileSnapshot('../../../src/app/antd-map-tokens.json');
  });

  it.each(NAMES.flatMap((name) => [[name, true], [name, false]] as const))('gives antd’s own map tokens for %s, motion %s', (name, motion) => {
    const seed = seedOf({ ...THEME_TOKENS[name], motion });
    expect(precomputedAlgorithm(seed)).toEqual(theme.defaultAlgorithm(seed));
  });

  it('derives another seed as antd would', () => {
    const seed = seedOf({ ...THEME_TOKENS.desktop, colorPrimary: '#fa541c' });
    const derived = precomputedAlgorithm(seed);
    expect(derived).toEqual(theme.defaultAlgorithm(seed));
    expect(derived.colorPrimary).toBe('#fa541c');
  });

  it.each(NAMES.flatMap((name) => [[name, true], [name, false]] as const))('serves a ConfigProvider with the %s theme (reduced motion %s) from the table', (name, reduced) => {
    const derive = vi.spyOn(theme, 'defaultAlgorithm');
    let primary = '';
    function Probe() {
      primary = theme.useToken().token.colorPrimary;
      return null;
    }
    renderToString(createElement(ConfigProvider, { theme: appTheme(name, reduced) }, createElement(Probe)));
    expect(primary).toBe(THEME_TOKENS[name].colorPrimary);
    expect(derive).not.toHaveBeenCalled();
  });
});
