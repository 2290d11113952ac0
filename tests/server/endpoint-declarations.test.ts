import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeKey, routePath } from '../../common/api/endpoint';
import { ENDPOINTS } from '../../common/api/endpoints';
import { API } from '../../common/api/paths';
import { SPEC_CALLS } from '../../common/api/spec-calls';
import { productRoutes } from '../tools/spec-coverage';

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
