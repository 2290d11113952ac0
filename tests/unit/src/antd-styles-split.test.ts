/**
 * The build's cut of antd's prebuilt stylesheet by component (vite.config.ts, splitAntdStyles): no
 * rule lost or doubled, each under the component it styles, inside its @media, in the file's order.
 * That each page then has the styles of what it shows is checked in Chromium (tests/e2e/antd-styles.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { prefixesRequestedIn, splitAntdStyles } from '../../../vite.config';

const styleRules = (css: string): string[] => {
  const out: string[] = [];
  postcss.parse(css).walkRules((rule) => {
    if (rule.parent?.type !== 'atrule' || (rule.parent as postcss.AtRule).name !== 'keyframes') out.push(rule.toString());
  });
  return out;
};

describe('splitAntdStyles', () => {
  it('puts each rule under the longest prefix its first antd class starts with', () => {
    const sheets = splitAntdStyles('.ant-input{a:1}.ant-input-number-handler{b:2}.ant-input-affix-wrapper .ant-btn{c:3}.ant-zoom-enter{d:4}a{e:5}', ['input', 'input-number', 'btn']);
    expect(sheets.get('input')).toBe('.ant-input{a:1}.ant-input-affix-wrapper .ant-btn{c:3}');
    expect(sheets.get('input-number')).toBe('.ant-input-number-handler{b:2}');
    // Motion classes and element resets belong to no component.
    expect(sheets.get('base')).toBe('.ant-zoom-enter{d:4}a{e:5}');
    expect(sheets.has('btn')).toBe(false);
  });

  it('keeps a rule inside copies of its @media and @supports, and keyframes whole in base', () => {
    const sheets = splitAntdStyles('@media (max-width:575px){.ant-col-xs-1{a:1}.ant-col-xs-2{b:2}.ant-btn{c:3}}@supports (display:grid){@media print{.ant-btn{d:4}}}@keyframes antZoomIn{0%{opacity:0}to{opacity:1}}', ['col', 'btn']);
    expect(sheets.get('col')).toBe('@media (max-width:575px){.ant-col-xs-1{a:1}.ant-col-xs-2{b:2}}');
    expect(sheets.get('btn')).toBe('@media (max-width:575px){.ant-btn{c:3}}@supports (display:grid){@media print{.ant-btn{d:4}}}');
    expect(sheets.get('base')).toBe('@keyframes antZoomIn{0%{opacity:0}to{opacity:1}}');
  });

  it('loses and doubles nothing of the installed antd stylesheet', () => {
    const require = createRequire(import.meta.url);
    const whole = readFileSync(require.resolve('antd/dist/antd.css'), 'utf8');
    const prefixes = prefixesRequestedIn(readFileSync(require.resolve('antd/es/button/Button.js'), 'utf8'));
    expect(prefixes).toContain('btn');
    const sheets = splitAntdStyles(whole, ['btn', 'input', 'table', 'menu', 'picker', 'col']);
    const pieces = [...sheets.values()].flatMap(styleRules).sort();
    expect(pieces).toEqual(styleRules(whole).sort());
    const keyframes = (css: string) => (css.match(/@keyframes/g) ?? []).length;
    expect(keyframes(sheets.get('base')!)).toBe(keyframes(whole));
    expect(styleRules(sheets.get('btn')!).every((rule) => /^[^{]*?\.ant-btn\b/.test(rule.split('{')[0]!))).toBe(true);
  });
});

describe('prefixesRequestedIn', () => {
  it('reads the class prefixes an antd module asks for', () => {
    expect(prefixesRequestedIn("const prefixCls = getPrefixCls('btn', customizePrefixCls); getPrefixCls( \"input-number\" ); getPrefixCls();")).toEqual(['btn', 'input-number']);
    expect(prefixesRequestedIn("export const floatButtonPrefixCls = 'float-btn';")).toEqual(['float-btn']);
  });
});
