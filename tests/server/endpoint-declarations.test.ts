import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { routeKey, routePath } from '../../common/api/endpoint';
import { ENDPOINTS } from '../../common/api/endpoints';
import { API } from '../../common/api/paths';
import { SPEC_CALLS } from '../../common/api/spec-calls';
import { DESKTOP_RELEASE_PATH } from '../../server/config';
import { productRoutes } from '../tools/spec-coverage';
import { startServer } from './helpers';

/**
 * Endpoint declarations (common/api/endpoints) are the one source of each call's method, path,
 * schemas, access, action code and encoding. These checks hold the server, the spec list and the
 * client to them.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

describe('endpoint declarations', () => {
  it('are unique, and each is served by the route registered from it, registered from its declaration (server/http/endpoint-route.ts derives the guard flags from its access)', async () => {
    const keys = ENDPOINTS.map(routeKey);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i), 'declared twice').toEqual([]);
    const routes = await productRoutes();
    for (const e of ENDPOINTS) {
      const served = routes.filter((r) => r.method === e.method && r.url === routePath(e));
      expect(served, routeKey(e)).toHaveLength(1);
      expect(served[0]!.endpoint, `${routeKey(e)} is registered from its declaration (server/http/endpoint-route.ts)`).toBe(e);
    }
  });

  it("keep spec §7's path letter for letter, its method and its encoding", () => {
    for (const call of SPEC_CALLS) {
      if (!call.path) continue;
      const declared = ENDPOINTS.filter((e) => routePath(e) === routePath({ path: call.path! } as never) && e.method === call.method);
      for (const e of declared) {
        expect(e.path, call.name).toBe(call.path);
        expect(e.encoding, `${call.method} ${call.name}: the spec's encoding`).toBe(call.encoding);
      }
    }
  });

  it('are called by the client through api.call, never by a raw path (method and encoding come from the entry)', () => {
    const declaredPaths = new Set(ENDPOINTS.map((e) => e.path));
    const declaredKeys = Object.entries(API).filter(([, p]) => typeof p === 'string' && declaredPaths.has(p)).map(([k]) => k);
    const raw = /\bapi\.(?:get|post|postForm|request|prefetch)\s*(?:<[^>]*>)?\(\s*API\.(\w+)\b/g;
    const offenders: string[] = [];
    for (const file of [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'workers'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(raw)) {
        if (declaredKeys.includes(m[1]!)) offenders.push(`${path.relative(ROOT, file)}: API.${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * Routes served without a declaration, each with its reason. Keep it short: everything else the
 * server answers is an entry in common/api/endpoints.
 */
/** WebDAV (issue 39): RFC 4918's methods on paths of the tree, not calls of ours; their matrix is tests/server/dav-access-matrix.test.ts. */
const DAV_REASON = 'WebDAV (RFC 4918): methods and paths are the protocol\'s, one dispatcher in server/dav/dav-routes.ts';

const UNDECLARED: Readonly<Record<string, string>> = {
  'GET /api/test/stats': 'test hook (DRIVE_TEST_HOOKS=1 only), not a product endpoint: server/routes/test-routes.ts',
  'PUT /api/test/raw-sink': 'test hook (DRIVE_TEST_HOOKS=1 only), not a product endpoint: server/routes/test-routes.ts',
  'POST /api/test/sweep': 'test hook (DRIVE_TEST_HOOKS=1 only), not a product endpoint: server/routes/test-routes.ts',
  'GET /*': "the built web app's files and the single-page fallback (@fastify/static): files, not calls",
  'HEAD /*': "the built web app's files and the single-page fallback (@fastify/static): files, not calls",
  [`GET ${DESKTOP_RELEASE_PATH}*`]: "the desktop release's files for its updater (@fastify/static, DESKTOP_RELEASE_DIR): files, not calls",
  [`HEAD ${DESKTOP_RELEASE_PATH}*`]: "the desktop release's files for its updater (@fastify/static, DESKTOP_RELEASE_DIR): files, not calls",
  'OPTIONS /dav': DAV_REASON,
  'OPTIONS /dav/*': DAV_REASON,
  'PROPFIND /dav': DAV_REASON,
  'PROPFIND /dav/*': DAV_REASON,
  'PROPPATCH /dav': DAV_REASON,
  'PROPPATCH /dav/*': DAV_REASON,
  'GET /dav': DAV_REASON,
  'GET /dav/*': DAV_REASON,
  'HEAD /dav': DAV_REASON,
  'HEAD /dav/*': DAV_REASON,
  'PUT /dav': DAV_REASON,
  'PUT /dav/*': DAV_REASON,
  'DELETE /dav': DAV_REASON,
  'DELETE /dav/*': DAV_REASON,
  'MKCOL /dav': DAV_REASON,
  'MKCOL /dav/*': DAV_REASON,
  'COPY /dav': DAV_REASON,
  'COPY /dav/*': DAV_REASON,
  'MOVE /dav': DAV_REASON,
  'MOVE /dav/*': DAV_REASON,
  'LOCK /dav': DAV_REASON,
  'LOCK /dav/*': DAV_REASON,
  'UNLOCK /dav': DAV_REASON,
  'UNLOCK /dav/*': DAV_REASON,
};

/** Every route the app registers that neither comes from a declaration nor is listed above. */
function undeclaredRoutes(app: FastifyInstance): string[] {
  return app.allRoutes
    .filter((r) => !r.config.endpoint)
    .map((r) => `${r.method} ${r.url}`)
    .filter((key) => !(key in UNDECLARED));
}

/** `request.body as T` and the like: the casts a declaration's typed request replaces. */
const CAST = /\b(?:request|req)\.(?:body|query|params)\s+as\b/g;

function castsIn(text: string): number {
  return [...text.matchAll(CAST)].length;
}

describe('every route comes from a declaration', () => {
  it('the whole app (test hooks, web app and desktop releases on) registers no route outside common/api/endpoints but the listed ones; one added by hand is found', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'drive-routes-'));
    const staticDir = path.join(dataDir, 'dist');
    const desktopReleaseDir = path.join(dataDir, 'releases');
    mkdirSync(staticDir, { recursive: true });
    mkdirSync(desktopReleaseDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    const server = await startServer({ dataDir, staticDir, desktopReleaseDir, testHooks: true }, (app) => {
      // A route registered by hand, as a new endpoint must not be: the check has to find it.
      app.get('/api/by-hand', async () => ({ data: null }));
    });
    try {
      const keys = server.app.allRoutes.map((r) => `${r.method} ${r.url}`);
      expect(Object.keys(UNDECLARED).filter((key) => !keys.includes(key)), 'listed but not registered (drop them)').toEqual([]);
      expect(undeclaredRoutes(server.app)).toEqual(['GET /api/by-hand']);
    } finally {
      await server.close();
    }
  });

  it('no route casts its request (`request.body as`, `.query as`, `.params as`): the declaration types it', () => {
    expect(castsIn('const q = request.query as { id: string }; const b = (request.body as B).ids; request.params  as P;')).toBe(3);
    const offenders = sourceFiles(path.join(ROOT, 'server'))
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((file) => castsIn(readFileSync(path.join(ROOT, file), 'utf8')) > 0);
    expect(offenders).toEqual([]);
  });
});
