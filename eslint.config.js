// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * One-way imports, checked on every import, export-from and dynamic import:
 *  - common/ imports only common/ (and environment-free packages);
 *  - workers/, server/, electron/ import only themselves and common/;
 *  - src/ imports src/ and common/; a feature (src/features/<name>) never imports another feature.
 * tests/ (with its bench/ and tools/) may import anything.
 */
const AREA_MAY_IMPORT = {
  common: ['common'],
  workers: ['workers', 'common'],
  server: ['server', 'common'],
  electron: ['electron', 'common'],
  src: ['src', 'common'],
};
/** Packages an area must not use, whatever the type-checker allows. */
const AREA_FORBIDDEN_PACKAGES = {
  // common: environment-free packages only: crypto-js, and typebox (endpoint schemas, common/api/endpoint.ts)
  common: /^(?!(crypto-js|typebox)(\/|$))/,
  workers: /^(react|react-dom|antd|@ant-design\/|jotai|wouter|fastify|@fastify\/|kysely|better-sqlite3|electron)(\/|$)/,
  // The engines under Node (headless sync, Electron's utility process) keep their journal in SQLite.
  'workers-node': /^(react|react-dom|antd|@ant-design\/|jotai|wouter|fastify|@fastify\/|kysely|electron)(\/|$)/,
  server: /^(react|react-dom|antd|@ant-design\/|jotai|wouter|dexie|comlink|electron)(\/|$)/,
  src: /^(node:|fastify|@fastify\/|kysely|better-sqlite3|electron)(\/|$)?/,
};

/** @param {string} file */
function locate(file) {
  const rel = path.relative(ROOT, file).split(path.sep);
  const area = rel[0] ?? '';
  /** workers/node and workers/sync run under Node: same imports as workers/, other packages. */
  const packageArea = area === 'workers' && (rel[1] === 'node' || rel[1] === 'sync') ? 'workers-node' : area;
  const feature = area === 'src' && rel[1] === 'features' ? rel[2] : undefined;
  return { area, feature, packageArea };
}

/** @type {import('eslint').Rule.RuleModule} */
const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const from = locate(context.filename);
    const allowed = AREA_MAY_IMPORT[/** @type {keyof typeof AREA_MAY_IMPORT} */ (from.area)];
    if (!allowed) return {};
    const forbiddenPkg = AREA_FORBIDDEN_PACKAGES[/** @type {keyof typeof AREA_FORBIDDEN_PACKAGES} */ (from.packageArea)];
    /** @param {any} node */
    function check(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      if (spec.startsWith('.')) {
        const to = locate(path.resolve(path.dirname(context.filename), spec));
        if (!allowed.includes(to.area)) {
          context.report({ node: source, message: `${from.area}/ must not import from ${to.area}/ (allowed: ${allowed.join(', ')})` });
        } else if (from.feature && to.feature && from.feature !== to.feature) {
          context.report({ node: source, message: `feature '${from.feature}' must not import feature '${to.feature}': move shared code to src/lib or src/components` });
        }
      } else if (forbiddenPkg && forbiddenPkg.test(spec)) {
        context.report({ node: source, message: `${from.area}/ must not use the package '${spec}'` });
      }
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'dist-electron/**', 'node_modules/**', '.tsbuild/**', 'data/**', 'dev-dist/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { boundaries } } },
    rules: {
      'local/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
