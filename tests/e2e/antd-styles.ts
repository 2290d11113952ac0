/**
 * The build cuts antd's prebuilt stylesheet by component (vite.config.ts, antdStylesByComponent):
 * each component's rules load with the chunk whose code renders it. This checks that promise on a
 * live page: every antd class an element carries, if antd's stylesheet has rules for it, has those
 * rules loaded. A component whose class arrived without its styles would look broken.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const ANTD_CLASS = /\.(ant-[a-z0-9-]+)/g;

let styledClasses: string[] | null = null;

/** Every class antd's whole stylesheet has a selector for. */
function antdStyledClasses(): string[] {
  styledClasses ??= [...new Set([...readFileSync(createRequire(import.meta.url).resolve('antd/dist/antd.css'), 'utf8').matchAll(ANTD_CLASS)].map((m) => m[1]!))];
  return styledClasses;
}

/** Classes on the page (with an example element each) that antd styles but whose rules are not loaded. */
export async function antdClassesWithoutStyles(page: Page): Promise<string[]> {
  return page.evaluate(([styled, classPattern]) => {
    const loaded = new Set<string>();
    const collect = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) for (const m of rule.selectorText.matchAll(new RegExp(classPattern, 'g'))) loaded.add(m[1]!);
        if ('cssRules' in rule) collect((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) collect(sheet.cssRules);
    const wanted = new Set(styled);
    const missing = new Map<string, string>();
    for (const el of Array.from(document.querySelectorAll('[class]'))) {
      for (const cls of Array.from(el.classList)) {
        if (wanted.has(cls) && !loaded.has(cls) && !missing.has(cls)) missing.set(cls, el.outerHTML.slice(0, 120));
      }
    }
    return [...missing].map(([cls, example]) => `${cls} (${example})`);
  }, [antdStyledClasses(), ANTD_CLASS.source] as const);
}
