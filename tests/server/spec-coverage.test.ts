import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SPEC_CALLS } from '../../common/api/spec-calls';
import { COVERAGE_FILE, productRoutes, renderSpecCoverage, specCallServed } from '../tools/spec-coverage';

/**
 * The §7 coverage table (common/api/SPEC-COVERAGE.md) must say exactly what the server serves: it is
 * regenerated here from the real server's route registry and compared with the committed file.
 */
describe('spec §7 coverage table', () => {
  it('is current: every "yes" is served with the spec\'s method, path and encoding (run `npm run spec:coverage` after serving a §7 call)', async () => {
    const committed = readFileSync(COVERAGE_FILE, 'utf8');
    expect(committed).toBe(renderSpecCoverage(await productRoutes()));
    // Our own routes are not listed: each is a declaration (endpoint-declarations.test.ts checks every route has one).
    expect(committed).not.toMatch(/^## Our routes/m);
  });

  it('lists the 78 calls of §7 once each, and a call not served yet names the issue that builds it', async () => {
    expect(SPEC_CALLS).toHaveLength(78);
    expect(new Set(SPEC_CALLS.map((c) => `${c.method} ${c.name}`)).size).toBe(78);
    const routes = await productRoutes();
    for (const c of SPEC_CALLS) if (!specCallServed(c, routes)) expect(c.plannedIn, c.name).toBeTypeOf('number');
  });

  it("a registered call is declared with the spec's encoding, read from its entry; one declared otherwise is not counted as served", async () => {
    const routes = await productRoutes();
    for (const c of SPEC_CALLS) {
      const route = routes.find((r) => r.method === c.method && c.path?.split('?')[0] === r.url);
      if (route) expect(route.endpoint?.encoding, `${c.method} ${c.name}`).toBe(c.encoding);
    }
    const login = SPEC_CALLS.find((c) => c.encoding === 'form')!;
    const asJson = routes.map((r) => (r.method === login.method && r.url === login.path!.split('?')[0] ? { ...r, endpoint: { ...r.endpoint!, encoding: 'json' as const } } : r));
    expect(specCallServed(login, asJson)).toBe(false);
    expect(renderSpecCoverage(asJson)).toContain(`| json | no: declared json, the spec says form |`);
  });

  it('a served call is registered with the method the spec gives', async () => {
    const routes = await productRoutes();
    for (const c of SPEC_CALLS.filter((call) => call.path !== null)) {
      const samePath = routes.filter((r) => r.url === c.path!.split('?')[0]);
      if (samePath.length > 0) expect(samePath.map((r) => r.method), c.name).toContain(c.method);
    }
  });
});
