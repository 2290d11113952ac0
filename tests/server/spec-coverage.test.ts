import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { beforeAll, describe, expect, it } from 'vitest';
import { data, endpoint, type AnyEndpoint } from '../../common/api/endpoint';
import { SPEC_CALLS, type SpecCall } from '../../common/api/spec-calls';
import { clientEntryPoints, clientUses, type ClientUse } from '../tools/client-callers';
import {
  COVERAGE_FILE,
  README_FILE,
  REPO_ROOT,
  callersOf,
  clientSpecUses,
  coverageFigures,
  encodingMismatchesOf,
  figuresSentence,
  productRoutes,
  readmeWithFigures,
  renderSpecCoverage,
  specCallServed,
  type RouteKey,
} from '../tools/spec-coverage';
import { encodingMismatches } from '../tools/spec-encoding';

/**
 * The §7 coverage table (common/api/SPEC-COVERAGE.md) and the README's figures must say exactly what
 * the server serves and the client calls: both are regenerated here from the real server's route
 * registry and the client's code, and compared with the committed files (docs/spec-coverage.md).
 */
let routes: RouteKey[];
let uses: ClientUse[];
beforeAll(async () => {
  [routes, uses] = await Promise.all([productRoutes(), clientSpecUses()]);
});

const call = (path: string, method = 'POST'): SpecCall => SPEC_CALLS.find((c) => c.path === path && c.method === method)!;
const routeFor = (c: SpecCall): RouteKey => routes.find((r) => r.method === c.method && r.url === c.path!.split('?')[0])!;

describe('spec §7 coverage table', () => {
  it('is current, and so are the README\'s figures (run `npm run spec:coverage` after serving a §7 call or adding or removing a caller)', () => {
    const stale = 'stale: run `npm run spec:coverage` and commit what it writes (docs/spec-coverage.md)';
    expect(readFileSync(COVERAGE_FILE, 'utf8'), `common/api/SPEC-COVERAGE.md is ${stale}`).toBe(renderSpecCoverage(routes, uses));
    const readme = readFileSync(README_FILE, 'utf8');
    expect(readme, `README.md's coverage figures are ${stale}`).toBe(readmeWithFigures(readme, coverageFigures(routes, uses)));
    // One figure, shown by both.
    expect(readFileSync(COVERAGE_FILE, 'utf8')).toContain(figuresSentence(coverageFigures(routes, uses)));
    expect(readme).toContain(figuresSentence(coverageFigures(routes, uses)));
    // Our own routes are not listed: each is a declaration (endpoint-declarations.test.ts checks every route has one).
    expect(readFileSync(COVERAGE_FILE, 'utf8')).not.toMatch(/^## Our routes/m);
  });

  it('a stale README figure fails the check; losing its markers is an error, not a silent skip', () => {
    const readme = readFileSync(README_FILE, 'utf8');
    const f = coverageFigures(routes, uses);
    const stale = readme.replace(figuresSentence(f), figuresSentence({ ...f, served: f.served - 14 }));
    expect(stale).not.toBe(readmeWithFigures(stale, f));
    expect(() => readmeWithFigures('no markers here', f)).toThrow(/markers/);
  });

  it('lists the 78 calls of §7 once each; a call not served yet names the issue that builds it, a served one names none (no stale marks)', () => {
    expect(SPEC_CALLS).toHaveLength(78);
    expect(new Set(SPEC_CALLS.map((c) => `${c.method} ${c.name}`)).size).toBe(78);
    for (const c of SPEC_CALLS) {
      if (specCallServed(c, routes)) expect(c.plannedIn, `${c.name} is served: drop its issue mark`).toBeUndefined();
      else expect(c.plannedIn, c.name).toBeTypeOf('number');
    }
  });

  it("every registered §7 call's declaration agrees with the spec's encoding: where its input goes, form fields, the fields the spec names, the envelope", () => {
    expect(encodingMismatchesOf(routes).map((m) => `${m.call.method} ${m.call.name}: ${m.problems.join('; ')}`)).toEqual([]);
  });

  it('a declaration departing from the spec is reported and not counted as served', () => {
    const login = call('/spacex/login?ajax=true');
    const asJson = routes.map((r) => (r === routeFor(login) ? { ...r, endpoint: { ...r.endpoint!, encoding: 'json' as const }, bodyEncoding: undefined } : r));
    expect(specCallServed(login, asJson)).toBe(false);
    expect(renderSpecCoverage(asJson, uses)).toContain('| no: declared json, the spec says form; the route takes json bodies, the spec says form |');
    expect(encodingMismatchesOf(asJson).map((m) => m.call)).toEqual([login]);

    // A form call whose declaration says form but whose route does not enforce it.
    const gesture = call('/api/v2/sysSetting/gesture/switch');
    expect(encodingMismatches(gesture, routeFor(gesture).endpoint!, undefined)).toEqual(['the route takes json bodies, the spec says form']);
    // A form body carrying a list; a POST taking its input in the query string; a GET with a body.
    const listInForm = endpoint({ method: 'POST', path: gesture.path!, access: 'admin', action: null, encoding: 'form', body: Type.Object({ value: Type.String(), ids: Type.Array(Type.String()) }), response: data<true>() });
    expect(encodingMismatches(gesture, listInForm, 'form')).toEqual(['form fields that are not scalars: ids']);
    const lock = call('/api/v2/account/lock');
    const inQuery = endpoint({ method: 'POST', path: lock.path!, access: 'admin', action: null, query: Type.Object({ userId: Type.String() }), response: data<true>() });
    expect(encodingMismatches(lock, inQuery, undefined)).toEqual(['input in the query string (userId), the spec says a json body']);
    const roles = call('/api/v2/user/getRoles', 'GET');
    const getWithBody = { ...routeFor(roles).endpoint!, body: Type.Object({ userId: Type.String() }) } as AnyEndpoint;
    expect(encodingMismatches(roles, getWithBody, undefined)).toEqual(['a GET declared with a body']);
  });

  it('the payload fields the spec names, and the list static data takes, are checked in the declaration', () => {
    const modify = call('/api/user/info/modify');
    expect(modify.fields).toEqual(['value', 'type', 'oldPassword']);
    const withoutOld = endpoint({ method: 'POST', path: modify.path!, access: 'member', action: null, body: Type.Object({ value: Type.String(), type: Type.Integer() }), response: data<true>() });
    expect(encodingMismatches(modify, withoutOld, undefined)).toEqual(['no oldPassword in the body']);
    const version = call('/api/clientVersion/get', 'GET');
    const noType = { ...routeFor(version).endpoint!, query: undefined } as AnyEndpoint;
    expect(encodingMismatches(version, noType, undefined)).toEqual(['no clientType in the query']);
    const staticData = SPEC_CALLS.find((c) => c.takesList)!;
    const wrongList = endpoint({ method: 'POST', path: staticData.path!, access: 'member', action: null, body: Type.Object({ names: Type.Array(Type.Enum(['quota'])) }), response: data<true>() });
    expect(encodingMismatches(staticData, wrongList, undefined)).toEqual(['no list that takes quota, customerTelephone, validity']);
    const bytesAnswer = { ...routeFor(staticData).endpoint!, response: { kind: 'bytes' } } as AnyEndpoint;
    expect(encodingMismatches(staticData, bytesAnswer, undefined)).toEqual(['answers bytes, not the { data } envelope']);
  });

  it('a served call is registered with the method the spec gives', () => {
    for (const c of SPEC_CALLS.filter((sc) => sc.path !== null)) {
      const samePath = routes.filter((r) => r.url === c.path!.split('?')[0]);
      if (samePath.length > 0) expect(samePath.map((r) => r.method), c.name).toContain(c.method);
    }
  });
});

describe("the 'called by the client' column", () => {
  it('reads the entry points from the pages and the desktop build', () => {
    expect(clientEntryPoints(REPO_ROOT)).toEqual(expect.arrayContaining(['src/main.tsx', 'src/link-main.tsx', 'electron/main.ts', 'electron/preload.ts', 'workers/sync/host.ts']));
  });

  it('finds calls the client makes through declarations, path constants and written-out paths, in the web app, the workers and the desktop shell', () => {
    expect(callersOf(call('/api/file/list'), uses).length).toBeGreaterThan(0);
    // The desktop sync engine (workers/sync, run by the Electron shell) and the shell's update flow.
    expect(callersOf(call('/api/syn/content'), uses).some((f) => f.startsWith('workers/sync/'))).toBe(true);
    expect(callersOf(call('/api/clientVersion/get', 'GET'), uses).some((f) => f.startsWith('electron/'))).toBe(true);
  });

  it('counts only code reached from an entry point: an exported wrapper nothing imports (also in a lazily loaded module), a type, a comment or an unreached module is not a call', async () => {
    const fixture = 'tests/tools/client-callers-fixture/';
    const paths = ['/api/file/list', '/api/menu/get', '/api/file/rename', '/spacex/logout', '/api/file/mkdir', '/api/file/removeFiles', '/api/file/copy', '/api/file/dir/list'];
    const found = await clientUses(REPO_ROOT, paths, { entries: [`${fixture}entry.ts`], roots: [fixture, 'common/'] });
    const called = [...new Set(found.map((u) => `${u.method ?? '*'} ${u.path} ${u.file.replace(fixture, '')}`))].sort();
    expect(called).toEqual(['* /api/menu/get live.ts', '* /spacex/logout lazy.ts', 'POST /api/file/list live.ts', 'POST /api/file/rename live.ts']);
  });
});
