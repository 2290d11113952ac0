/**
 * Deletes above the threshold wait (workers/sync/delete-gate.ts), on plans the real planner makes:
 * the share and count thresholds, a side emptied, both directions counted together, a cloud folder
 * counting the files under it, and a confirmation that lets exactly the shown deletes go.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELETE_GUARD, judgeDeletes, plannedDeletes, tokenOf, type GateVerdict } from '../../workers/sync/delete-gate';
import type { JournalEntry, LocalEntry, PlanInput, RemoteEntry } from '../../workers/sync/model';
import { createIgnoreMatcher, pathKey } from '../../workers/sync/names';
import { plan } from '../../workers/sync/planner';

const NOW = new Date(2024, 4, 1, 10, 30).getTime();
const OLD = NOW - 3_600_000;

const file = (path: string): LocalEntry => ({ path, isDir: false, size: 10, mtimeMs: OLD, fileId: `ino-${path}`, fingerprint: `F-${path}` });
const dir = (path: string): LocalEntry => ({ path, isDir: true, size: 0, mtimeMs: 0, fileId: `ino-${path}` });
const remoteOf = (l: LocalEntry): RemoteEntry => ({ path: l.path, id: `r-${l.path}`, parentId: 'root', isDir: l.isDir, size: l.size, updatedAt: OLD, fingerprint: l.isDir ? null : `F-${l.path}` });
const agreed = (l: LocalEntry): JournalEntry => ({
  key: pathKey(l.path),
  path: l.path,
  isDir: l.isDir,
  size: l.size,
  mtimeMs: l.mtimeMs,
  fileId: l.fileId,
  fingerprint: l.isDir ? null : `F-${l.path}`,
  remoteId: `r-${l.path}`,
  trusted: true,
});

/** A synced tree: `n` files under `docs/` (and the folder). */
function synced(n: number): LocalEntry[] {
  return [dir('docs'), ...Array.from({ length: n }, (_, i) => file(`docs/f${String(i).padStart(4, '0')}.txt`))];
}

/** Plans local and remote as given against a journal of `base`, and judges the plan's deletes. */
function gate(base: LocalEntry[], local: LocalEntry[], remote: RemoteEntry[], confirmed: ReadonlySet<string> = new Set()): { verdict: GateVerdict; deletes: ReturnType<typeof plannedDeletes> } {
  const journal = base.map(agreed);
  const input: PlanInput = { mode: 'two-way', deleteRemote: false, account: '张三', now: NOW, platform: 'linux', local, remote, journal, frozen: new Map(), isIgnored: createIgnoreMatcher([]) };
  const deletes = plannedDeletes(plan(input).ops, journal);
  const verdict = judgeDeletes({
    deletes,
    confirmed,
    syncedFiles: journal.filter((j) => !j.isDir).length,
    localFiles: local.filter((l) => !l.isDir).length,
    remoteFiles: remote.filter((r) => !r.isDir).length,
    guard: DEFAULT_DELETE_GUARD,
  });
  return { verdict, deletes };
}

const held = (v: GateVerdict) => (v.go ? null : v);

describe('delete gate', () => {
  it('holds 195 of 200 files deleted locally (over 50 %), but lets the rest of the pass go', () => {
    const base = synced(200);
    const { verdict, deletes } = gate(base, base.slice(0, 6), base.map(remoteOf));
    expect(deletes.filter((d) => d.side === 'remote')).toHaveLength(195);
    expect(held(verdict)).toMatchObject({ wholePass: false, remoteFiles: 195, localFiles: 0 });
    expect(held(verdict)!.reason).toContain('云端 195 个');
  });

  it('holds a small folder emptied (8 of 8) as a whole pass, on either side', () => {
    const base = synced(8);
    const emptiedHere = gate(base, [dir('docs')], base.map(remoteOf));
    expect(held(emptiedHere.verdict)).toMatchObject({ wholePass: true, remoteFiles: 8 });
    expect(held(emptiedHere.verdict)!.reason).toContain('本地文件夹是空的');
    const emptiedThere = gate(base, base, [remoteOf(dir('docs'))]);
    expect(held(emptiedThere.verdict)).toMatchObject({ wholePass: true, localFiles: 8 });
    expect(held(emptiedThere.verdict)!.reason).toContain('云端文件夹是空的');
  });

  it('lets up to half go, and holds more than 100 files even when that is a small share', () => {
    const ten = synced(10);
    expect(gate(ten, ten.slice(0, 6), ten.map(remoteOf)).verdict.go).toBe(true); // 5 of 10: not more than half
    expect(gate(ten, ten.slice(0, 5), ten.map(remoteOf)).verdict.go).toBe(false); // 6 of 10
    const thousand = synced(1000);
    expect(gate(thousand, thousand.slice(0, 901), thousand.map(remoteOf)).verdict.go).toBe(true); // 100
    const over = held(gate(thousand, thousand.slice(0, 900), thousand.map(remoteOf)).verdict);
    expect(over).toMatchObject({ wholePass: false, remoteFiles: 101 });
    expect(over!.reason).toContain('超过了 100 个');
  });

  it('counts both directions together: 30 deleted here and 30 in the cloud of 100 is 60 %', () => {
    const base = synced(100);
    const local = base.filter((_, i) => i === 0 || i > 30);
    const remote = base.filter((_, i) => i === 0 || i <= 30 || i > 60).map(remoteOf);
    const { verdict, deletes } = gate(base, local, remote);
    expect(deletes.filter((d) => d.side === 'remote')).toHaveLength(30);
    expect(deletes.filter((d) => d.side === 'local')).toHaveLength(30);
    expect(held(verdict)).toMatchObject({ localFiles: 30, remoteFiles: 30 });
  });

  it('counts a deleted folder by the synced files under it', () => {
    const base = [...synced(40), dir('big'), ...Array.from({ length: 60 }, (_, i) => file(`big/${i}.bin`))];
    const { verdict, deletes } = gate(base, base.filter((l) => !l.path.startsWith('big')), base.map(remoteOf));
    expect(deletes).toEqual([expect.objectContaining({ path: 'big', side: 'remote', isDir: true, files: 60 })]);
    expect(held(verdict)).toMatchObject({ remoteFiles: 60 });
  });

  it('a confirmation lets exactly the shown deletes go: later ones are judged on their own', () => {
    const base = synced(200);
    const first = gate(base, base.slice(0, 6), base.map(remoteOf));
    const shown = held(first.verdict)!.held;
    const confirmed = new Set(shown.map((d) => d.identity));
    // The same deletes, confirmed: they go.
    expect(gate(base, base.slice(0, 6), base.map(remoteOf), confirmed).verdict.go).toBe(true);
    // One more deleted since: judged alone (1 of 200), everything goes.
    expect(gate(base, base.slice(0, 5), base.map(remoteOf), confirmed).verdict.go).toBe(true);
    // The rest deleted too: the side is empty now, and only what was not shown waits.
    const emptied = held(gate(base, [dir('docs')], base.map(remoteOf), confirmed).verdict)!;
    expect(emptied.wholePass).toBe(true);
    expect(emptied.held.map((d) => d.path).sort()).toEqual(base.slice(1, 6).map((l) => l.path).sort());
    // The token names the set, whatever the order.
    expect(tokenOf(shown)).toBe(tokenOf([...shown].reverse()));
    expect(tokenOf(shown)).not.toBe(tokenOf(shown.slice(1)));
  });
});
