import { existsSync, promises as fsp, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip } from 'node:zlib';
import { defineConfig, runnerImport, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import postcss, { type AtRule, type ChildNode, type Container, type Root } from 'postcss';
import { resolveNetworkEnv, NETWORK_ENV_VARIABLE } from './common/api/client-env';
import { clientEndpointModule } from './common/api/endpoint-table';
import { ACCOUNT_PICTURE_CACHE } from './common/api/offline-caches';
import { reachableFrom } from './common/reachable';
import { PDFJS_ASSET_FOLDERS, pdfjsAssetBase } from './common/pdfjs-assets';
import { LINK_PAGE_TEMPLATE_FILE, type LinkPageTemplates } from './common/link-page/template';

/** A file of this project by its path from here. */
const fromHere = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** 个人文件's address, which gets personal.html (personalFrameHtml) from the server and the service worker. */
const PERSONAL_PAGE = '/main/file/personal';

/** Where `npm run dev:web` forwards API calls (the server started by `npm run dev:server`). */
const DEV_API_TARGET = process.env.DEV_API_TARGET ?? 'http://localhost:8080';

/**
 * Build-time constants of the web app: which network build it is (client type 3 or 4, the
 * network-environment header, the beian footer) and the ICP filing number the public build shows.
 */
export function buildDefines(mode: string, env: Record<string, string | undefined>): Record<string, string> {
  return {
    'import.meta.env.VITE_NETWORK_ENV': JSON.stringify(resolveNetworkEnv(mode, env[NETWORK_ENV_VARIABLE])),
    'import.meta.env.VITE_BEIAN_NUMBER': JSON.stringify(env.BEIAN_NUMBER ?? ''),
    // Every build is a new version (the update prompt, and the chunk reload after a deployment, key on it).
    'import.meta.env.VITE_BUILD_ID': JSON.stringify(env.BUILD_ID ?? new Date().toISOString()),
  };
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|wasm|txt)$/;
/** Below this a compressed twin saves less than its headers cost. */
const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

async function precompressDir(dir: string): Promise<number> {
  let count = 0;
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = await fsp.readFile(file);
    if (data.length < MIN_BYTES) continue;
    const [br, gzipped] = await Promise.all([
      brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
      gz(data, { level: 9 }),
    ]);
    if (br.length < data.length) await fsp.writeFile(`${file}.br`, br);
    if (gzipped.length < data.length) await fsp.writeFile(`${file}.gz`, gzipped);
    count++;
  }
  return count;
}

/**
 * After the build, every text asset gets a brotli (.br) and a gzip (.gz) twin, which the server sends
 * as they are (@fastify/static preCompressed): compressed once at the best ratios, never per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'drive-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every other plugin's closeBundle (the service worker is written there too).
    closeBundle: { order: 'post', sequential: true, handler: async () => void (await precompressDir(outDir)) },
  };
}

/** A component's class prefix in the string literal antd's code asks for it with: getPrefixCls('btn'). */
const PREFIX_REQUEST = /getPrefixCls\(\s*['"]([a-z-]+)['"]|PrefixCls\s*=\s*['"]([a-z-]+)['"]/g;

export function prefixesRequestedIn(code: string): string[] {
  return [...new Set([...code.matchAll(PREFIX_REQUEST)].map((m) => (m[1] ?? m[2])!))];
}

/**
 * antd's prebuilt stylesheet (zero-runtime mode) cut by component: each rule goes to the component
 * whose class its selector starts from (`.ant-btn-primary…` → 'btn', by the longest known prefix, so
 * 'input-number' before 'input'), inside copies of its @media/@supports wrappers, in the file's order.
 * What belongs to no component (keyframes, motion classes, the link resets, theme variables) is 'base'.
 */
export function splitAntdStyles(css: string, prefixes: readonly string[]): Map<string, string> {
  const longestFirst = [...prefixes].sort((a, b) => b.length - a.length);
  const familyOf = (selector: string): string => {
    const cls = /\.ant-([a-z0-9-]+)/.exec(selector)?.[1];
    return (cls && longestFirst.find((p) => cls === p || cls.startsWith(p + '-'))) ?? 'base';
  };
  const sheets = new Map<string, Root>();
  const sheet = (family: string) => sheets.get(family) ?? sheets.set(family, postcss.root()).get(family)!;
  const place = (node: ChildNode, family: string, wrappers: AtRule[]) => {
    let parent: Container = sheet(family);
    for (const wrapper of wrappers) {
      const last = parent.last;
      // Consecutive rules under the same @media share one copy of it.
      parent = last?.type === 'atrule' && last.name === wrapper.name && last.params === wrapper.params ? last : parent.append(wrapper.clone({ nodes: [] })).last as AtRule;
    }
    parent.append(node.clone());
  };
  const visit = (container: Container, wrappers: AtRule[]) => {
    for (const node of container.nodes ?? []) {
      if (node.type === 'rule') place(node, familyOf(node.selector), wrappers);
      else if (node.type === 'atrule' && node.name !== 'keyframes' && node.nodes?.some((child) => child.type === 'rule' || child.type === 'atrule')) visit(node, [...wrappers, node]);
      else if (node.type === 'atrule') place(node, 'base', wrappers);
    }
  };
  visit(postcss.parse(css), []);
  return new Map([...sheets].map(([family, sheetRoot]) => [family, sheetRoot.toString()]));
}

/**
 * antd's styles travel with the components that use them. App.tsx imports antd's whole prebuilt
 * stylesheet (1 MB, 6,000 rules: parsing it and matching its selectors held up every page's first
 * paint); in a build that import keeps only 'base', and every antd module that asks for a class
 * prefix imports that component's rules, so Vite puts them in the CSS of the chunk that renders the
 * component: the login page blocks on the button and input styles, a date picker's arrive with the
 * date picker. The dev server keeps the whole stylesheet (it pre-bundles antd, so no per-module hook).
 */
function antdStylesByComponent(): Plugin {
  const require = createRequire(import.meta.url);
  const wholeSheet = require.resolve('antd/dist/antd.css');
  const antdModules = path.dirname(require.resolve('antd/es/index.js'));
  let dir = '';
  /** The sheets each antd module imports: the prefixes it asks for that have rules. */
  let sheetsOfModule = new Map<string, string[]>();
  return {
    name: 'drive-antd-styles-by-component',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      dir = path.join(config.cacheDir, 'antd-styles');
    },
    async buildStart() {
      const requested = new Map<string, string[]>();
      for (const file of readdirSync(antdModules, { recursive: true, encoding: 'utf8' })) {
        if (file.endsWith('.js')) requested.set(path.join(antdModules, file), prefixesRequestedIn(readFileSync(path.join(antdModules, file), 'utf8')));
      }
      const sheets = splitAntdStyles(await fsp.readFile(wholeSheet, 'utf8'), [...new Set([...requested.values()].flat())]);
      await fsp.mkdir(dir, { recursive: true });
      for (const [family, css] of sheets) {
        // Written whole, then renamed: two builds at once (npm start beside a bench) share this folder.
        const file = path.join(dir, `${family}.css`);
        await fsp.writeFile(`${file}.${process.pid}.tmp`, css);
        await fsp.rename(`${file}.${process.pid}.tmp`, file);
      }
      sheetsOfModule = new Map([...requested].map(([file, prefixes]) => [file, prefixes.filter((prefix) => prefix !== 'base' && sheets.has(prefix))]));
    },
    resolveId(source) {
      return source === 'antd/dist/antd.css' ? path.join(dir, 'base.css') : null;
    },
    transform(code, id) {
      const imports = sheetsOfModule.get(id);
      if (!imports?.length) return null;
      // On the first line, so the module's own lines keep their numbers.
      return { code: imports.map((prefix) => `import ${JSON.stringify(path.join(dir, `${prefix}.css`))};`).join('') + code, map: null };
    },
  };
}

/**
 * antd's CSS variables for the first screens, in index.html (src/app/antd-static-css-vars.ts says
 * why): rendered once per build by the installed antd with the app's own theme, so they can never
 * disagree with what antd would insert. After the charset declaration, which must stay in the first
 * 1,024 bytes.
 */
function antdCssVarsInHtml(): Plugin {
  let styles = '';
  return {
    name: 'drive-antd-css-vars-in-html',
    apply: 'build',
    async buildStart() {
      const { module } = await runnerImport<{ staticCssVarStyles: () => string }>('./src/app/antd-static-css-vars.ts', { configFile: false, logLevel: 'warn' });
      styles = module.staticCssVarStyles();
    },
    transformIndexHtml(html) {
      const charset = '<meta charset="UTF-8" />';
      if (!html.includes(charset)) throw new Error(`index.html: ${charset} not found, where antd's CSS variables go`);
      return html.replace(charset, `${charset}\n    ${styles}`);
    },
  };
}

/** What a frame drawn at build time may import: its stylesheets come from the chunks that own them. */
const stubStylesheets: Plugin = {
  name: 'drive-stub-css',
  enforce: 'pre',
  resolveId: (id) => (id.endsWith('.css') ? '\0drive-stub.css.js' : null),
  load: (id) => (id === '\0drive-stub.css.js' ? 'export default ""' : null),
};

/**
 * personal.html: index.html with 个人文件's frame drawn in (src/app/personal-frame.tsx says what and
 * why) over the loading screen, and the stylesheet of the shell's chunk (the frame's antd rules and
 * the list's) linked beside the entry's, so the frame paints styled before any script runs.
 * src/lib/boot-frame.ts removes it in the commit that replaces the loading screen. Wide screens only.
 */
function personalFrameHtml(): Plugin {
  let frame = '';
  return {
    name: 'drive-personal-frame',
    apply: 'build',
    enforce: 'post',
    async buildStart() {
      const { module } = await runnerImport<{ personalFrameMarkup: () => string }>('./src/app/personal-frame.tsx', { configFile: false, logLevel: 'warn', plugins: [stubStylesheets] });
      frame = module.personalFrameMarkup();
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return;
      const shell = Object.values(bundle).find((c) => c.type === 'chunk' && c.name === 'shell');
      if (shell?.type !== 'chunk') throw new Error('personal.html: no shell chunk');
      // The stylesheets of the shell chunk and of the chunks it imports (the breadcrumb's are in
      // link-shell), those first, as the chunk's own loading would link them; index.html has the entry's.
      const html = String(index.source);
      const css: string[] = [];
      const seen = new Set<string>();
      const collect = (fileName: string) => {
        const chunk = bundle[fileName];
        if (seen.has(fileName) || chunk?.type !== 'chunk') return;
        seen.add(fileName);
        chunk.imports.forEach(collect);
        for (const file of chunk.viteMetadata?.importedCss ?? []) if (!css.includes(file) && !html.includes(`/${file}"`)) css.push(file);
      };
      collect(shell.fileName);
      if (css.length === 0) throw new Error('personal.html: the shell chunk has no stylesheet');
      const root = '<div id="root">';
      if (!html.includes(root) || !html.includes('</head>')) throw new Error('personal.html: index.html has no #root or </head>');
      // The shell's scripts are asked for with the page, not once the boot chunk has run and imported
      // them: fetched and compiled (off the main thread) while the boot chunk runs, they are ready when
      // the account opens, and the shell's import no longer finishes their compilation on the main
      // thread (V8's ScriptCatchup) in the task that evaluates them. Dependencies first.
      const preloads = [...seen].reverse().filter((file) => !html.includes(`/${file}"`)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
      const links = css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`).join('') + preloads.join('');
      // Below 768 px the frame is not shown (the loading screen is); above, the loading screen's spinner
      // lies under it unseen, and turning it would have the compositor draw a frame every 16 ms of the boot.
      const phoneHides = `<style>@media (max-width: 767.98px){#boot-frame{display:none}}@media (min-width: 768px){#boot-frame~#root *{animation-play-state:paused}}</style>`;
      const drawn = `<div id="boot-frame" inert aria-hidden="true" style="position:fixed;inset:0;z-index:1000;background:#fff;overflow:hidden">${frame}</div>`;
      this.emitFile({ type: 'asset', fileName: 'personal.html', source: html.replace('</head>', `${links}${phoneHides}</head>`).replace(root, drawn + root) });
    },
  };
}

/**
 * Each endpoint declaration file reaches the web app and its workers as plain tables without the
 * schemas, which only the server validates with (common/api/endpoint-table.ts says why). Written from
 * the real module, so the client can't disagree with the server. Build only: the dev server serves
 * the declarations as they are.
 */
function endpointTablesForClient(): Plugin {
  const declarations = fromHere('./common/api/endpoints/');
  return {
    name: 'drive-endpoint-tables',
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      if (!id.startsWith(declarations) || !id.endsWith('.ts') || id.endsWith('/index.ts')) return null;
      const { module } = await runnerImport<Record<string, unknown>>(id, { configFile: false, logLevel: 'warn' });
      return clientEndpointModule(module, path.relative(fromHere('.'), id));
    },
  };
}

/** A file a barrel re-exports from (`./button` → …/button/index.js). */
function reexportedFile(barrel: string, relative: string): string {
  const base = path.resolve(path.dirname(barrel), relative);
  const file = [base, `${base}.js`, path.join(base, 'index.js')].find((f) => existsSync(f) && statSync(f).isFile());
  if (!file) throw new Error(`${barrel}: ${relative} not found`);
  return file;
}

/** A package barrel's `export { default as X } from './x'` lines as X → file, following `export * from`. */
export function barrelDefaults(barrel: string): Map<string, string> {
  const code = readFileSync(barrel, 'utf8');
  const names = new Map<string, string>();
  for (const m of code.matchAll(/export \* from ["'](\.[^"']+)["'];/g)) for (const [name, file] of barrelDefaults(reexportedFile(barrel, m[1]!))) names.set(name, file);
  for (const m of code.matchAll(/export \{ default as (\w+) \} from ["'](\.[^"']+)["'];/g)) names.set(m[1]!, reexportedFile(barrel, m[2]!));
  return names;
}

/**
 * `import { Button, Modal as M } from 'antd'` as `import Button from '…/antd/es/button/index.js'` …:
 * what a module asks of a barrel, named in the module graph. Names the barrel does not re-export as a
 * default stay in an import from the barrel. Null when the code imports from none of `barrels`.
 */
export function importsPastBarrels(code: string, barrels: ReadonlyMap<string, ReadonlyMap<string, string>>): string | null {
  let changed = false;
  const out = code.replace(/import\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2;?/g, (statement, list: string, quote: string, source: string) => {
    const names = barrels.get(source);
    if (!names) return statement;
    const direct: string[] = [];
    const rest: string[] = [];
    for (const item of list.split(',').map((i) => i.trim()).filter(Boolean)) {
      const [imported, local = imported] = item.split(/\s+as\s+/) as [string, string?];
      const file = item.startsWith('type ') ? undefined : names.get(imported);
      if (file) direct.push(`import ${local} from ${JSON.stringify(file)};`);
      else rest.push(item);
    }
    if (!direct.length) return statement;
    changed = true;
    return [...direct, ...(rest.length ? [`import { ${rest.join(', ')} } from ${quote}${source}${quote};`] : [])].join(' ');
  });
  return changed ? out : null;
}

/**
 * The app's imports from antd's and @ant-design/icons' barrels, pointed at the modules they name
 * (like Next.js's optimizePackageImports). Tree-shaking gave the same bundle either way; but through
 * a barrel the module graph says every page needs every component, and the chunk groups below read
 * that graph.
 */
function directImportsFromAntd(): Plugin {
  const barrels = new Map<string, Map<string, string>>();
  return {
    name: 'drive-direct-imports-from-antd',
    apply: 'build',
    async buildStart() {
      for (const source of ['antd', '@ant-design/icons']) {
        const resolved = await this.resolve(source, fromHere('src/main.tsx'));
        if (!resolved) throw new Error(`${source} does not resolve`);
        barrels.set(source, barrelDefaults(resolved.id));
      }
    },
    transform(code, id) {
      if (!id.startsWith(fromHere('src/')) || !/\.[jt]sx?$/.test(id)) return null;
      const rewritten = importsPastBarrels(code, barrels);
      return rewritten === null ? null : { code: rewritten, map: null };
    },
  };
}

/**
 * Labels our UI libraries write in English whatever the locale (antd's zh_CN locale has no say over
 * them): the number input's step buttons ("Increase Value"), the dialog's and notification's close
 * button ("Close"), the segmented control's name. Replaced in the library's module as it is bundled,
 * so every use in the app reads Chinese (issue 44); a library update that moves one fails the build
 * here rather than bringing the English back unseen. tests/e2e/chinese-labels.test.ts looks for
 * English in the rendered pages.
 */
export const CHINESE_LIBRARY_LABELS: ReadonlyArray<{ module: string; from: string; to: string }> = [
  { module: '@rc-component/input-number/es/StepHandler.js', from: "'Increase Value'", to: "'增加数值'" },
  { module: '@rc-component/input-number/es/StepHandler.js', from: "'Decrease Value'", to: "'减少数值'" },
  { module: '@rc-component/dialog/es/Dialog/Content/Panel.js', from: '"aria-label": "Close"', to: '"aria-label": "关闭"' },
  { module: '@rc-component/notification/es/Notification.js', from: '"aria-label": "Close"', to: '"aria-label": "关闭"' },
  { module: '@rc-component/segmented/es/index.js', from: '"aria-label": "segmented control"', to: '"aria-label": "分段选择"' },
];

export function chineseLibraryLabels(): Plugin {
  const byModule = new Map<string, Array<{ from: string; to: string }>>();
  for (const r of CHINESE_LIBRARY_LABELS) byModule.set(r.module, [...(byModule.get(r.module) ?? []), r]);
  return {
    name: 'chinese-library-labels',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!.split(path.sep).join('/');
      for (const [module, replacements] of byModule) {
        if (!file.endsWith(`/node_modules/${module}`)) continue;
        let out = code;
        for (const { from, to } of replacements) {
          if (!out.includes(from)) this.error(`${module} no longer holds ${from}: see CHINESE_LIBRARY_LABELS in vite.config.ts`);
          out = out.split(from).join(to);
        }
        return { code: out, map: null };
      }
      return null;
    },
  };
}

/**
 * A share link's first screens for the server to fill in (common/link-page/template.ts): drawn by the
 * link page's own views (src/app/link-page-template.tsx), written beside link.html. The server may not
 * use the UI's packages; the build may.
 */
export function linkPageTemplate(): Plugin {
  let templates: LinkPageTemplates | null = null;
  return {
    name: 'drive-link-page-template',
    apply: 'build',
    async buildStart() {
      const { module } = await runnerImport<{ linkPageTemplates: () => LinkPageTemplates }>('./src/app/link-page-template.tsx', { configFile: false, logLevel: 'warn', plugins: [stubStylesheets] });
      templates = module.linkPageTemplates();
    },
    generateBundle() {
      if (!templates) throw new Error('link page template: not drawn');
      this.emitFile({ type: 'asset', fileName: LINK_PAGE_TEMPLATE_FILE, source: JSON.stringify(templates) });
    },
  };
}

/**
 * pdf.js's data files (CMaps, standard fonts: common/pdfjs-assets.ts) served from this origin: copied
 * out of pdfjs-dist into the build, and served from node_modules by the dev server.
 */
export function pdfjsDataFiles(): Plugin {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const base = pdfjsAssetBase(version);
  return {
    name: 'drive-pdfjs-data-files',
    generateBundle() {
      for (const folder of PDFJS_ASSET_FOLDERS) {
        for (const name of readdirSync(path.join(root, folder))) {
          if (name.startsWith('LICENSE')) continue;
          this.emitFile({ type: 'asset', fileName: `${base.slice(1)}${folder}/${name}`, source: readFileSync(path.join(root, folder, name)) });
        }
      }
    },
    configureServer(server) {
      server.middlewares.use(base, (req, res, next) => {
        const [folder, name] = (req.url ?? '').split('?')[0]!.replace(/^\//, '').split('/');
        if (!PDFJS_ASSET_FOLDERS.includes(folder as (typeof PDFJS_ASSET_FOLDERS)[number]) || !name || name.includes('..')) return next();
        const file = path.join(root, folder!, name);
        if (!existsSync(file)) return next();
        res.end(readFileSync(file));
      });
    },
  };
}

/**
 * V8's explicit compile hint on the first screens' chunks: they are mostly code that runs during the
 * load, which V8 would otherwise compile function by function on the main thread as it is first called.
 * With the hint it compiles them all on a background thread while the file streams in (Chrome 136+;
 * other engines read a comment).
 */
const FIRST_SCREEN_CHUNKS = ['boot', 'shell', 'common', 'link-boot', 'link-shell'];

export function compileFirstScreensEagerly(): Plugin {
  return {
    name: 'drive-compile-first-screens-eagerly',
    apply: 'build',
    enforce: 'post',
    // After minifying (which drops comments) and after Vite puts its preload table at the top.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && (FIRST_SCREEN_CHUNKS.includes(chunk.name) || (chunk.isEntry && chunk.name === 'link'))) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
        }
      },
    },
  };
}

interface ChunkingGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds?: readonly string[] } | null;
}

/**
 * Fewer files on the way to the first screens. Left to itself the bundler cut what index.html and the
 * shell need into ~40 small chunks, each with its slice of antd's stylesheet (every module two lazy
 * chunks share became a chunk of its own): over HTTP/1.1's six connections per host they queued, and
 * the shell's code and the account's first answers waited behind each other. Two groups:
 * - `boot` (it holds the entry, so it is the entry chunk): what index.html's script needs, plus what
 *   the login page and the shell both need — every page is one of the two, so that costs neither;
 * - `shell`: the rest of what the shell (src/app/MainShell.tsx) needs before it renders.
 * The login page's own rest, and every lazy chunk, are cut as the bundler cuts them; pages inside the
 * shell import from `shell`, which has loaded by then.
 * - the link pages (link.html, src/link-main.tsx: an outsider's page of a share link) must never import
 *   `boot` (a chunk holding an entry module runs it when imported: the whole app would start over the
 *   link page) nor pay for `shell`. What their code page needs that the first screens also need is
 *   `common` (React and a few modules; both entries import it); what their later parts (the opened
 *   link, antd) share with `boot` or `shell` is `link-boot` or `link-shell`, which `boot` and `shell`
 *   import in turn — the same bytes for the app, split in more files.
 */
export function firstScreenGroups(roots: { entry: string; login: string; shell: string; link: string }) {
  type Group = 'boot' | 'shell' | 'common' | 'link-boot' | 'link-shell';
  let groupOf: Map<string, Group> | null = null;
  const closure = (graph: ChunkingGraph, root: string, dynamic = false) =>
    reachableFrom(root, (id) => {
      const info = graph.getModuleInfo(id);
      return info ? (dynamic ? [...info.importedIds, ...(info.dynamicallyImportedIds ?? [])] : info.importedIds) : [];
    });
  const groupsOf = (graph: ChunkingGraph): Map<string, Group> => {
    if (groupOf) return groupOf;
    const [entry, login, shell, link, linkLater] = [closure(graph, roots.entry), closure(graph, roots.login), closure(graph, roots.shell), closure(graph, roots.link), closure(graph, roots.link, true)];
    groupOf = new Map();
    for (const module of shell) groupOf.set(module, login.has(module) ? 'boot' : 'shell');
    for (const module of entry) groupOf.set(module, 'boot');
    for (const module of linkLater) {
      const group = groupOf.get(module);
      if (group) groupOf.set(module, link.has(module) ? 'common' : group === 'boot' ? 'link-boot' : 'link-shell');
    }
    return groupOf;
  };
  // Matched in this order, and a group takes its modules' imports along: each is closed under imports
  // except for what an earlier one took.
  const group = (debugName: string, names: readonly Group[]) => ({
    debugName,
    // Asked only about the modules the bundle keeps; the closures also pass through ones it dropped (barrels).
    name: (id: string, graph: ChunkingGraph): Group | null => {
      const found = groupsOf(graph).get(id);
      return found && names.includes(found) ? found : null;
    },
  });
  return [group('the link code page and the first screens', ['common']), group('the link pages later and boot', ['link-boot']), group('the link pages later and the shell', ['link-shell']), group('first screens', ['boot', 'shell'])];
}

/** The package (or source file) a module belongs to, for the chunk report: 'antd/es/table', '@rc-component/tree', '/src/…'. */
function moduleGroup(id: string): string {
  const inPackage = id.split('node_modules/').pop() ?? id;
  if (inPackage === id) return id.replace(process.cwd(), '');
  const parts = inPackage.split('/');
  return parts.slice(0, parts[0]?.startsWith('@') || parts[0] === 'antd' ? 3 : 2).join('/');
}

/**
 * `CHUNK_REPORT=1 npx vite build` prints, per chunk, its imports and its largest packages by brotli size
 * (each compressed alone, so a little above their share of the chunk); `CHUNK_REPORT=<text>` also
 * prints who imports each module whose id contains <text>. For finding what a page loads and why.
 */
function chunkReport(why: string): Plugin {
  return {
    name: 'drive-chunk-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (why !== '1') {
        for (const id of this.getModuleIds()) {
          if (id.includes(why)) console.log('importers of', moduleGroup(id), id.split('/').pop(), '<-', (this.getModuleInfo(id)?.importers ?? []).map(moduleGroup).join(' | '));
        }
      }
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const code = new Map<string, string>();
        for (const [id, module] of Object.entries(chunk.modules)) code.set(moduleGroup(id), (code.get(moduleGroup(id)) ?? '') + (module.code ?? ''));
        const sizes = [...code].map(([group, text]) => [group, brotliCompressSync(text).length] as const).sort((a, b) => b[1] - a[1]);
        console.log(`\n## ${chunk.fileName} imports ${chunk.imports.join(', ')}`);
        for (const [group, size] of sizes.slice(0, 40)) console.log(String(size).padStart(8), group);
      }
    },
  };
}

export default defineConfig(({ mode }) => ({
  define: buildDefines(mode, process.env),
  plugins: [
    antdStylesByComponent(),
    antdCssVarsInHtml(),
    personalFrameHtml(),
    endpointTablesForClient(),
    directImportsFromAntd(),
    compileFirstScreensEagerly(),
    linkPageTemplate(),
    pdfjsDataFiles(),
    chineseLibraryLabels(),
    react(),
    VitePWA({
      // A new deployment waits until the user says so (发现新版本 → 刷新, src/features/pwa): a page
      // never runs old and new chunks side by side.
      registerType: 'prompt',
      injectRegister: false, // src/features/pwa registers it, so the app decides when
      includeAssets: ['favicon.svg', 'icons/*.png', 'screenshots/*.png'],
      manifest: {
        id: '/',
        name: '企业云盘',
        short_name: '云盘',
        description: '企业云盘：个人文件、共享文件、同步备份',
        lang: 'zh-CN',
        start_url: '/main/file/personal',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#0958d9',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        screenshots: [
          { src: '/screenshots/files-wide.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: '个人文件' },
          { src: '/screenshots/files-narrow.png', sizes: '390x844', type: 'image/png', form_factor: 'narrow', label: '手机上的个人文件' },
        ],
        shortcuts: [
          { name: '个人文件', short_name: '文件', url: '/main/file/personal', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
          { name: '传输列表', short_name: '传输', url: '/main/file/personal?transfers=open', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
        ],
      },
      workbox: {
        // The app shell (HTML, JS, CSS, workers, icons) is precached, so every route opens offline.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,wasm}'],
        // Nor is the document viewer (pdf.js, src/components/document/PdfViewer.tsx: ~480 kB of script and
        // ~110 kB of styles; its 1.4 MB worker and data files are not matched above): a preview needs the
        // network for the document itself, so a precached viewer would open nothing offline, while every
        // install — phones included — would download and keep it. It loads with the first preview.
        globIgnores: ['sw-network-routes.js', 'assets/PdfViewer-*'],
        // Writes and uploads bypass the service worker (static routing): public/sw-network-routes.js.
        importScripts: ['/sw-network-routes.js'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/spacex\//],
        // 个人文件 opens on its frame, as the server sends it (the brand written in): the page's own address
        // is precached in place of the personal.html template, with the template's revision. The precache
        // answers before the fallback above, whatever the query (?dir=…, ?transfers=open): nothing it
        // holds is told apart by a query.
        manifestTransforms: [
          (entries) => {
            const frame = entries.find((e) => e.url === 'personal.html');
            if (!frame) throw new Error('service worker: personal.html is not precached');
            return { manifest: [...entries.filter((e) => e !== frame), { ...frame, url: PERSONAL_PAGE.slice(1) }], warnings: [] };
          },
        ],
        ignoreURLParametersMatching: [/./],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        // The first install takes the open page at once (nothing older to mix with); updates wait.
        clientsClaim: true,
        // API answers are never cached here: the data layer keeps them per account (src/lib/data).
        // Only pictures are: the tenant's logo (public) and thumbnails (wiped at logout with the
        // account's other data, src/lib/data/session.ts), with bounds on count and age.
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname === '/api/v2/defaultConfig/logo',
            handler: 'StaleWhileRevalidate',
            options: { cacheName: 'drive-logo', expiration: { maxEntries: 4 } },
          },
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/api/file/thumbnail/'),
            handler: 'CacheFirst',
            options: { cacheName: ACCOUNT_PICTURE_CACHE, expiration: { maxEntries: 800, maxAgeSeconds: 14 * 24 * 3600 }, cacheableResponse: { statuses: [200] } },
          },
        ],
      },
    }),
    precompress(),
    process.env.CHUNK_REPORT ? chunkReport(process.env.CHUNK_REPORT) : null,
  ],
  worker: { format: 'es', plugins: () => [endpointTablesForClient()] },
  server: {
    // Keep the browser's Host so the server's Origin check (writes must come from the same host) holds.
    proxy: {
      '/api': { target: DEV_API_TARGET, changeOrigin: false },
      '/spacex': { target: DEV_API_TARGET, changeOrigin: false },
    },
  },
  build: {
    // The server serves STATIC_DIR: building there lets `npm start` run several instances side by side.
    outDir: process.env.STATIC_DIR || 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
    rolldownOptions: {
      // The app, and the pages an outsider opens from a share link (common/api/sharing.ts linkEntryOf).
      input: { index: fromHere('index.html'), link: fromHere('link.html') },
      output: {
        codeSplitting: {
          groups: firstScreenGroups({ entry: fromHere('src/main.tsx'), login: fromHere('src/features/auth/login.ts'), shell: fromHere('src/app/MainShell.tsx'), link: fromHere('src/link-main.tsx') }),
        },
      },
    },
  },
}));
