/**
 * How the build cuts the first screens' code (vite.config.ts): the app's imports from antd's and the
 * icons' barrels named past the barrel, and the `boot` / `shell` chunk groups read from the module
 * graph. What that saves is measured by `npm run bench -- delivery` (files and kB per page).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutputBundle } from 'rolldown';
import { barrelDefaults, compileFirstScreensEagerly, firstScreenGroups, importsPastBarrels } from '../../../vite.config';

const require = createRequire(import.meta.url);

describe('barrelDefaults', () => {
  it("reads the installed antd's and icons' barrels, following export *", () => {
    const antd = barrelDefaults(require.resolve('antd/es/index.js'));
    expect(antd.get('Button')).toBe(path.join(path.dirname(require.resolve('antd/es/index.js')), 'button', 'index.js'));
    expect(antd.get('ConfigProvider')).toMatch(/antd\/es\/config-provider\/index\.js$/);
    expect(antd.get('theme')).toMatch(/antd\/es\/theme\/index\.js$/);
    const icons = barrelDefaults(path.join(path.dirname(require.resolve('antd/es/index.js')), '../../@ant-design/icons/es/index.js'));
    expect(icons.get('MenuOutlined')).toMatch(/@ant-design\/icons\/es\/icons\/MenuOutlined\.js$/);
    expect(icons.size).toBeGreaterThan(800);
  });
});

describe('importsPastBarrels', () => {
  const barrels = new Map([['antd', new Map([['Button', '/nm/antd/es/button/index.js'], ['Modal', '/nm/antd/es/modal/index.js']])]]);

  it('imports each name from its own module, aliases kept, other names left with the barrel', () => {
    const code = `import { Button, Modal as M, version } from "antd";\nimport { useState } from 'react';\nexport const x = [Button, M, version, useState];`;
    expect(importsPastBarrels(code, barrels)).toBe(
      `import Button from "/nm/antd/es/button/index.js"; import M from "/nm/antd/es/modal/index.js"; import { version } from "antd";\nimport { useState } from 'react';\nexport const x = [Button, M, version, useState];`,
    );
  });

  it('leaves code alone that imports nothing the barrels name (null: no change)', () => {
    expect(importsPastBarrels(`import { version } from 'antd'; import { Button } from './Button';`, barrels)).toBeNull();
    expect(importsPastBarrels(`import * as antd from 'antd';`, barrels)).toBeNull();
  });

  it('keeps type-only names with the barrel', () => {
    expect(importsPastBarrels(`import { Button, type ButtonProps } from 'antd';`, barrels)).toBe(`import Button from "/nm/antd/es/button/index.js"; import { type ButtonProps } from 'antd';`);
  });
});

describe('firstScreenGroups', () => {
  // entry → app → shared; login → shared, loginOnly; shell → shared, shellOnly → deep; lazy → lazyOnly
  const graph: Record<string, string[]> = {
    entry: ['app'],
    app: ['shared-with-entry'],
    login: ['shared', 'loginOnly'],
    shell: ['shared', 'shellOnly', 'shared-with-entry'],
    shellOnly: ['deep', 'barrel'],
    barrel: ['deep2'],
    lazy: ['lazyOnly', 'shellOnly'],
    link: ['shared', 'linkOnly', 'shared-with-entry'],
  };
  // link → shared, linkOnly, shared-with-entry; later (dynamic) → linkLater → deep, loginOnly
  const dynamic: Record<string, string[]> = { link: ['linkLater'] };
  graph.linkLater = ['deep', 'app'];
  const ctx = { getModuleInfo: (id: string) => ({ importedIds: graph[id] ?? [], dynamicallyImportedIds: dynamic[id] ?? [] }) };

  it('puts what the entry needs, and what login and shell share, in boot, the rest of the shell in shell, and what the link pages share with them in common', () => {
    const groupList = firstScreenGroups({ entry: 'entry', login: 'login', shell: 'shell', link: 'link' });
    // Rolldown asks about the modules the bundle keeps (not `barrel`), group by group in order.
    const kept = ['entry', 'app', 'shared-with-entry', 'login', 'shared', 'loginOnly', 'shell', 'shellOnly', 'deep', 'deep2', 'lazy', 'lazyOnly', 'link', 'linkOnly', 'linkLater'];
    const groups = Object.fromEntries(kept.map((id) => [id, groupList.map((g) => g.name(id, ctx)).find((name) => name !== null) ?? null]));
    expect(groups).toEqual({
      entry: 'boot',
      app: 'link-boot', // the link pages' later parts need it: never through boot, which holds the entry
      'shared-with-entry': 'common',
      login: null,
      shared: 'common',
      loginOnly: null,
      shell: 'shell',
      shellOnly: 'shell',
      deep: 'link-shell',
      deep2: 'shell', // reached through a module the bundle dropped (a barrel)
      lazy: null,
      lazyOnly: null,
      // What the link pages' entry shares with boot goes to common (both import it); its own stays its own.
      link: null,
      linkOnly: null,
      linkLater: null,
    });
  });
});

describe('compileFirstScreensEagerly', () => {
  it("puts V8's compile hint on the first line of the boot and shell chunks only, after everything else is written", () => {
    const chunk = (name: string) => ({ type: 'chunk', name, code: 'const __vite__mapDeps=1;\nexport{}' });
    const bundle = { a: chunk('boot'), b: chunk('shell'), c: chunk('login'), d: { type: 'asset', name: 'boot.css', source: 'x{}' } };
    const hook = compileFirstScreensEagerly().generateBundle as { order: string; handler: (o: unknown, b: OutputBundle) => void };
    expect(hook.order).toBe('post');
    hook.handler({}, bundle as unknown as OutputBundle);
    expect(bundle.a.code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    expect(bundle.b.code.startsWith('//# allFunctionsCalledOnLoad\nconst __vite__mapDeps')).toBe(true);
    expect(bundle.c.code).toBe('const __vite__mapDeps=1;\nexport{}');
    expect(bundle.d.source).toBe('x{}');
  });
});

