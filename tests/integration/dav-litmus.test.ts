/**
 * litmus, the WebDAV compliance suite (Debian's package, written by others), against /dav/个人文件/:
 * it works in /dav/个人文件/litmus/ (URL-encoded). The basic, copymove, props and locks groups must
 * pass whole: every test of each group runs (litmus 0.13's count per group below) and passes — none
 * skipped, none failing. Warnings are printed (litmus counts them as passes).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLitmus, startDavServer, stopDavServer, type DavServer, type LitmusResult } from '../support/dav-clients';

/** The groups and how many tests litmus 0.13 runs in each (its `of N tests run`, init and finish included). */
const GROUPS = { basic: 16, copymove: 13, props: 30, locks: 41 } as const;
const NAMES = Object.keys(GROUPS) as Array<keyof typeof GROUPS>;

let dav: DavServer;
let results: LitmusResult[] = [];
let output = '';

beforeAll(async () => {
  dav = await startDavServer('dav-litmus-');
  const r = await runLitmus(dav, dav.url('个人文件/'), NAMES, path.join(dav.work, 'litmus'));
  results = r.results;
  output = r.run.stdout + r.run.stderr;
});

afterAll(async () => {
  await stopDavServer(dav);
});

describe('litmus', () => {
  it.each(NAMES)('runs and passes every test of the %s group', (group) => {
    const mine = results.filter((r) => r.group === group);
    const pass = mine.filter((r) => r.outcome === 'pass').length;
    console.log(`litmus ${group}: ${pass}/${mine.length} pass`, mine.filter((r) => r.outcome !== 'pass' || r.detail).map((r) => `${r.name} ${r.outcome} ${r.detail}`));
    const failing = mine.filter((r) => r.outcome !== 'pass').map((r) => `${group}/${r.index}.${r.name}: ${r.outcome} ${r.detail}`);
    expect(failing, output.slice(-4000)).toEqual([]);
    expect(mine.length, `litmus ran ${mine.length} tests of ${group}, not ${GROUPS[group]}:\n${output.slice(-4000)}`).toBe(GROUPS[group]);
  });
});
