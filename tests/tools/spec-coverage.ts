/**
 * Renders common/api/SPEC-COVERAGE.md and the README's coverage figures: every call of spec §7
 * (common/api/spec-calls.ts) with whether the server serves it (its route's declaration checked
 * against the spec's encoding, tests/tools/spec-encoding.ts) and which client modules call it
 * (read from the code, tests/tools/client-callers.ts). Routes of our own are their declarations,
 * not listed. `npm run spec:coverage` rewrites both files; tests/server/spec-coverage.test.ts checks
 * them. How it works and when to run it: docs/spec-coverage.md.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyEndpoint } from '../../common/api/endpoint';
import { SPEC_CALLS, type SpecCall } from '../../common/api/spec-calls';
import { clientUses, type ClientUse } from './client-callers';
import { declaredInput, encodingMismatches } from './spec-encoding';

const HERE = fileURLToPath(import.meta.url);
export const REPO_ROOT = path.resolve(path.dirname(HERE), '../..');
export const COVERAGE_FILE = path.join(REPO_ROOT, 'common/api/SPEC-COVERAGE.md');
export const README_FILE = path.join(REPO_ROOT, 'README.md');

export interface RouteKey {
  method: string;
  url: string;
  /** The declaration the route was registered from (common/api/endpoints), if any. */
  endpoint?: AnyEndpoint;
  /** 'form' where the route takes form bodies (what the body-encoding guard enforces). */
  bodyEncoding?: string;
}

const routePath = (p: string): string => p.split('?')[0]!;
const key = (method: string, url: string): string => `${method} ${routePath(url)}`;

/** The route a spec call is registered as: same method and path (the spec's `?ajax=true` is a query, not a path). */
function routeOf(call: SpecCall, routes: readonly RouteKey[]): RouteKey | undefined {
  return call.path === null ? undefined : routes.find((r) => key(r.method, r.url) === key(call.method, call.path!));
}

/** Why a call is not served as the spec says (empty: it is). */
export function specCallProblems(call: SpecCall, routes: readonly RouteKey[]): string[] {
  const route = routeOf(call, routes);
  if (!route) return [`not yet${call.plannedIn ? ` (issue #${call.plannedIn})` : ''}`];
  if (!route.endpoint) return ['registered without a declaration'];
  return encodingMismatches(call, route.endpoint, route.bodyEncoding);
}

/** Served: registered from a declaration with the spec's method, path and encoding (schemas included). */
export function specCallServed(call: SpecCall, routes: readonly RouteKey[]): boolean {
  return specCallProblems(call, routes).length === 0;
}

/** The calls registered with the spec's method and path whose declaration departs from its encoding. */
export function encodingMismatchesOf(routes: readonly RouteKey[]): { call: SpecCall; problems: string[] }[] {
  return SPEC_CALLS.filter((c) => routeOf(c, routes)?.endpoint).map((call) => ({ call, problems: specCallProblems(call, routes) })).filter((m) => m.problems.length > 0);
}

/** The client modules that call a §7 call (a bare path written out matches any method). */
export function callersOf(call: SpecCall, uses: readonly ClientUse[]): string[] {
  if (call.path === null) return [];
  const p = routePath(call.path);
  return [...new Set(uses.filter((u) => u.path === p && (u.method === null || u.method === call.method)).map((u) => u.file))].sort();
}

export interface CoverageFigures {
  total: number;
  served: number;
  /** Served calls some client code calls. */
  called: number;
  /** Calls registered with the spec's method and path whose declaration departs from its encoding. */
  mismatches: number;
}

export function coverageFigures(routes: readonly RouteKey[], uses: readonly ClientUse[]): CoverageFigures {
  const served = SPEC_CALLS.filter((c) => specCallServed(c, routes));
  return {
    total: SPEC_CALLS.length,
    served: served.length,
    called: served.filter((c) => callersOf(c, uses).length > 0).length,
    mismatches: encodingMismatchesOf(routes).length,
  };
}

/** The one sentence both SPEC-COVERAGE.md and the README show (the README between the markers below). */
export function figuresSentence(f: CoverageFigures): string {
  const mismatches = f.mismatches === 0 ? 'none declared otherwise' : `${f.mismatches} declared otherwise`;
  return `serves **${f.served} of the spec's ${f.total} calls** with the spec's method, path and encoding (${mismatches}), and the client calls ${f.called} of them`;
}

export const README_START = '<!-- spec-coverage:figures -->';
export const README_END = '<!-- /spec-coverage:figures -->';

/** The README with its marked span set to the figures sentence; throws when the markers are gone. */
export function readmeWithFigures(readme: string, f: CoverageFigures): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has lost its ${README_START} … ${README_END} markers`);
  return readme.slice(0, start + README_START.length) + figuresSentence(f) + readme.slice(end);
}

/**
 * One caller (the first by path) and whether there are more: the cell changes when a call gains its
 * first caller or loses its last, seldom when code moves (`npm run spec:coverage -- --callers` lists all).
 */
function callersCell(callers: readonly string[], served: boolean): string {
  if (callers.length === 0) return served ? '**no caller**' : '—';
  return `\`${callers[0]}\`${callers.length > 1 ? ' and others' : ''}`;
}

export function renderSpecCoverage(routes: readonly RouteKey[], uses: readonly ClientUse[]): string {
  const figures = coverageFigures(routes, uses);
  const lines: string[] = [
    '# Spec §7 coverage',
    '',
    "<!-- Generated by `npm run spec:coverage` from common/api/spec-calls.ts, the server's route registry (each route's endpoint declaration: encoding and schemas) and the client's code. Do not edit by hand: tests/server/spec-coverage.test.ts fails when this file or the README's figures are stale. See docs/spec-coverage.md. -->",
    '',
    `The server ${figuresSentence(figures)}.`,
    '',
    "Served means: registered from a declaration (`common/api/endpoints/`) with the spec's method and path, declared with " +
      "the spec's encoding and enforcing it, its input where that encoding carries it (a GET's in its query, a POST's in " +
      'its body, a form body of scalar fields only), the payload fields the spec names declared there, and answering the ' +
      '`{ data }` envelope. *Declared* shows where the declaration takes its input. *Called by the client* names the ' +
      'first by path of the modules of `src/`, `workers/`, `electron/` (and `common/` code they run) that use the call\'s ' +
      'declaration or path in code reachable from the client\'s entry points (`npm run spec:coverage -- --callers` lists ' +
      'them all). Where the spec does not show a path, the path is ours ' +
      '(`common/api/paths.ts`). Calls not served yet name the open issue that builds them. The routes of our own, beyond ' +
      '§7, are their declarations in `common/api/endpoints/`: not listed here.',
    '',
    '| group | call | method | path | encoding | declared | served | called by the client |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const c of SPEC_CALLS) {
    const shownPath = c.path ? `\`${c.path}\`` : '(not shown; chosen when built)';
    const endpoint = routeOf(c, routes)?.endpoint;
    const problems = specCallProblems(c, routes);
    const served = problems.length === 0;
    const state = served ? 'yes' : routeOf(c, routes) ? `no: ${problems.join('; ')}` : problems[0]!;
    const declared = endpoint ? declaredInput(endpoint) : '—';
    lines.push(`| ${c.group} | ${c.name === c.path ? '' : c.name} | ${c.method} | ${shownPath} | ${c.encoding} | ${declared} | ${state} | ${callersCell(callersOf(c, uses), served)} |`);
  }
  const uncalled = SPEC_CALLS.filter((c) => specCallServed(c, routes) && callersOf(c, uses).length === 0);
  lines.push('', `## Served, with no caller in the client (${uncalled.length})`, '');
  if (uncalled.length === 0) lines.push('None: the client calls every served call.');
  for (const c of uncalled) lines.push(`- ${c.method} \`${c.path}\`${c.name === c.path ? '' : ` (${c.name})`}`);
  return lines.join('\n') + '\n';
}

/** The routes of a real server built with test hooks off (the test-only routes are not part of the product). */
export async function productRoutes(): Promise<RouteKey[]> {
  const { buildApp } = await import('../../server/app');
  const { DEFAULTS } = await import('../../server/config');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'drive-spec-coverage-'));
  const app = await buildApp({
    ...DEFAULTS,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: path.join(dataDir, 'no-dist'),
    dbUrl: undefined,
    publicBaseUrl: '',
    uploadExpiryMs: 24 * 3600 * 1000,
    sweepIntervalMs: 0,
    testHooks: false,
    logger: false,
    logRequests: false,
    trustProxy: [],
  });
  try {
    await app.ready();
    return app.apiRoutes.map((r) => ({ method: r.method, url: r.url, endpoint: r.config.endpoint, bodyEncoding: r.config.bodyEncoding }));
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Every use of a §7 call in the client's code. */
export function clientSpecUses(): Promise<ClientUse[]> {
  return clientUses(REPO_ROOT, SPEC_CALLS.flatMap((c) => (c.path ? [c.path] : [])));
}

if (process.argv[1] && path.resolve(process.argv[1]) === HERE) {
  const [routes, uses] = await Promise.all([productRoutes(), clientSpecUses()]);
  writeFileSync(COVERAGE_FILE, renderSpecCoverage(routes, uses));
  writeFileSync(README_FILE, readmeWithFigures(readFileSync(README_FILE, 'utf8'), coverageFigures(routes, uses)));
  const f = coverageFigures(routes, uses);
  console.log(`wrote ${path.relative(process.cwd(), COVERAGE_FILE)} and the README's figures: ${f.served}/${f.total} served, ${f.called} called by the client, ${f.mismatches} encoding mismatches`);
  if (process.argv.includes('--callers')) for (const c of SPEC_CALLS) console.log(`${c.method} ${c.path}: ${callersOf(c, uses).join(', ') || 'no caller'}`);
}
