import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { MapToken, SeedToken } from 'antd/es/theme/interface';
import { TOUCH_TARGET_PX } from '../lib/use-phone';
// What antd's default algorithm makes of the two seeds below, computed by the installed antd in
// tests/unit/src/antd-theme.test.ts (`npx vitest run tests/unit/src/antd-theme.test.ts -u` writes it
// again after an upgrade).
import precomputed from './antd-map-tokens.json';

/**
 * Colours that read: antd's default blue (#1677ff) and its lightest greys fall short of the 4.5:1
 * contrast WCAG asks of text (Lighthouse accessibility). Blue 7 and greys of at least 56 % black hold it.
 */
const DESKTOP_TOKEN = {
  colorPrimary: '#0958d9',
  colorLink: '#0958d9',
  colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
  colorTextTertiary: 'rgba(0, 0, 0, 0.58)',
  colorTextQuaternary: 'rgba(0, 0, 0, 0.56)',
  colorTextDescription: 'rgba(0, 0, 0, 0.58)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
};

/** On a phone every control is a touch target of at least 44 px (WCAG 2.5.5). */
const PHONE_TOKEN = { ...DESKTOP_TOKEN, controlHeight: TOUCH_TARGET_PX, controlHeightSM: 36 };

export const THEME_TOKENS = { desktop: DESKTOP_TOKEN, phone: PHONE_TOKEN };
export type ThemeName = keyof typeof THEME_TOKENS;

/** The seed antd's algorithm is given for a theme's token: antd's defaults under ours. */
export function seedOf(token: Partial<SeedToken>): SeedToken {
  return { ...antdTheme.defaultSeed, ...token };
}

/** A seed as a string, `motion` aside: the algorithm only copies it through. */
function seedKey(seed: SeedToken): string {
  const entries = Object.entries(seed).filter(([key]) => key !== 'motion');
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

const PRECOMPUTED = precomputed as unknown as Record<ThemeName, MapToken>;
const BY_SEED = new Map((Object.keys(THEME_TOKENS) as ThemeName[]).map((name) => [seedKey(seedOf(THEME_TOKENS[name])), PRECOMPUTED[name]]));

/**
 * antd's default algorithm, looked up for our own seeds. Deriving the map tokens (thirteen colour
 * palettes and the neutral greys) cost 30–90 ms of the first render of every page load, and again in
 * each nested ConfigProvider; the result for a given antd and seed never changes. Another seed (none
 * today) is derived as antd would.
 */
export function precomputedAlgorithm(seed: SeedToken): MapToken {
  const map = BY_SEED.get(seedKey(seed));
  return map ? { ...map, motion: seed.motion } : antdTheme.defaultAlgorithm(seed);
}

/**
 * The app's theme. antd's styles come prebuilt (zero-runtime); the token applies through CSS
 * variables. A user who asked the system for less motion (prefers-reduced-motion) gets menus, dialogs
 * and drawers that appear at once, without antd's zoom and slide animations.
 */
export function appTheme(name: ThemeName, reducedMotion: boolean): ThemeConfig {
  return THEMES[name][reducedMotion ? 1 : 0];
}

/**
 * The class that scopes a theme's CSS variables. Named rather than antd's default (React's useId),
 * so the variables rendered at build time into index.html (antd-static-css-vars.tsx) carry the same
 * class and hash as the ones antd would insert, and antd finds them in place.
 */
export function cssVarKey(name: ThemeName, reducedMotion: boolean): string {
  return `css-var-${name}${reducedMotion ? '-still' : ''}`;
}

const themeOf = (name: ThemeName, motion: boolean): ThemeConfig => ({
  zeroRuntime: true,
  algorithm: precomputedAlgorithm,
  token: { ...THEME_TOKENS[name], motion },
  cssVar: { key: cssVarKey(name, !motion) },
});
// Built once: ConfigProvider compares its theme by value on every render, a new object each time costs that.
const THEMES: Record<ThemeName, [ThemeConfig, ThemeConfig]> = {
  desktop: [themeOf('desktop', true), themeOf('desktop', false)],
  phone: [themeOf('phone', true), themeOf('phone', false)],
};
