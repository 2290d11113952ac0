/**
 * The planner and what a side could not read (issue 42): an unreadable folder, a file the scan could
 * not look at, a cloud folder the listing could not give. Each freezes its whole subtree for the
 * pass, on both sides: no delete, no move out of it, no forgetting of its journal rows.
 */
import { describe, expect, it } from 'vitest';
import { describeOp } from '../../workers/sync/executor';
import type { LocalEntry, PlanInput } from '../../workers/sync/model';
import { plan } from '../../workers/sync/planner';
import { agreed, dir, file, planInput, rdir, rfile } from './plan-entries';

/** A synced tree: locked/, locked/inner.txt, locked/sub/, locked/sub/deep.txt, other.txt (all agreed). */
function syncedTree() {
  const l = [dir('locked'), file('locked/inner.txt', 'F1'), dir('locked/sub'), file('locked/sub/deep.txt', 'F2'), file('other.txt', 'F3')];
  const r = [rdir('locked'), rfile('locked/inner.txt', 'F1'), rdir('locked/sub'), rfile('locked/sub/deep.txt', 'F2'), rfile('other.txt', 'F3')];
  const j = l.map((entry, i) => agreed(entry, r[i]!));
  return { l, r, j };
}

function run(over: Partial<PlanInput>): string[] {
  return plan(planInput(over)).ops.map(describeOp);
}

/** What the scan of a folder it could not list gives: the folder's own entry, nothing under it, the issue. */
const lockedScan = (l: LocalEntry[]) => ({
  local: l.filter((e) => !e.path.startsWith('locked/')),
  frozen: new Map([['locked', '没有权限读取文件夹“locked”']]),
  unreadable: [{ path: 'locked', side: 'local' as const }],
});

describe('planner: what a side could not read is frozen with its whole subtree', () => {
  it('an unreadable local folder: nothing under it is deleted in the cloud (two-way and backup)', () => {
    const { l, r, j } = syncedTree();
    expect(run({ ...lockedScan(l), remote: r, journal: j })).toEqual([]);
    expect(run({ ...lockedScan(l), remote: r, journal: j, mode: 'backup', deleteRemote: true })).toEqual([]);
  });

  it('an unreadable local folder: a cloud delete under it does not delete (nor forget) the local copy this pass', () => {
    const { l, r, j } = syncedTree();
    const remote = r.filter((e) => e.path !== 'locked/inner.txt' && e.path !== 'locked/sub/deep.txt');
    expect(run({ ...lockedScan(l), remote, journal: j })).toEqual([]);
  });

  it('a file the scan could not look at (an I/O error on its stat) is not deleted in the cloud', () => {
    const { l, r, j } = syncedTree();
    const local = l.filter((e) => e.path !== 'other.txt');
    const ops = run({ local, remote: r, journal: j, frozen: new Map([['other.txt', '读取时磁盘出错']]), unreadable: [{ path: 'other.txt', side: 'local' }] });
    expect(ops).toEqual([]);
  });

  it('a cloud folder the listing could not give: nothing under it is deleted locally, nothing uploaded into it', () => {
    const { l, r, j } = syncedTree();
    const remote = r.filter((e) => !e.path.startsWith('locked/'));
    const ops = run({ local: [...l, file('locked/new.txt', 'F9')], remote, journal: j, unreadable: [{ path: 'locked', side: 'remote' }] });
    expect(ops).toEqual([]);
  });

  it('nothing moves out of an unreadable subtree, and an entry moved into one is held where it was known', () => {
    const { l, r, j } = syncedTree();
    // The other device moved other.txt into locked/, which this laptop cannot read: not a delete here.
    const remote = [...r.filter((e) => e.path !== 'other.txt'), rfile('locked/other.txt', 'F3', 'r-other.txt')];
    expect(run({ ...lockedScan(l), remote, journal: j })).toEqual([]);
    // The other device moved locked/inner.txt out of it: it arrives at its new place; nothing is removed here.
    const movedOut = [...r.filter((e) => e.path !== 'locked/inner.txt'), rfile('inner.txt', 'F1', 'r-locked/inner.txt')];
    expect(run({ ...lockedScan(l), remote: movedOut, journal: j }).filter((op) => /delete|move/.test(op))).toEqual([]);
  });

  it('a folder renamed and then made unreadable here: its old place is held, not deleted in the cloud', () => {
    const { r, j } = syncedTree();
    // locked/ was renamed to hidden/ (same file id) and hidden/ cannot be listed.
    const local = [dir('hidden', 'ino-locked'), file('other.txt', 'F3')];
    const ops = run({ local, remote: r, journal: j, frozen: new Map([['hidden', '没有权限']]), unreadable: [{ path: 'hidden', side: 'local' }] });
    expect(ops.filter((op) => /delete|move/.test(op))).toEqual([]);
  });

  it('what was readable next to it still syncs; a delete next to it waits for a scan without holes (it may have moved into the hole)', () => {
    const { l, r, j } = syncedTree();
    const local = [...lockedScan(l).local.filter((e) => e.path !== 'other.txt'), file('new.txt', 'F8')];
    const remote = [...r, rfile('from-cloud.txt', 'F7')];
    expect(run({ ...lockedScan(l), local, remote, journal: j })).toEqual(['download from-cloud.txt (r-from-cloud.txt) → from-cloud.txt', 'upload new.txt → new.txt']);
    // Once the scan reads everything, the delete goes through.
    const readable = [...l.filter((e) => e.path !== 'other.txt'), file('new.txt', 'F8')];
    expect(run({ local: readable, remote: r, journal: j })).toEqual(['deleteRemote other.txt (r-other.txt)', 'upload new.txt → new.txt']);
  });

  it('a cloud listing with a hole: an agreed entry missing from it is neither deleted here nor taken as replaced', () => {
    const { l, r, j } = syncedTree();
    // other.txt is missing from the listing (moved into the hole, or deleted: cannot be told), and
    // another cloud file took the name locked2/… — nothing is deleted or overwritten locally.
    const remote = [...r.filter((e) => !e.path.startsWith('locked/') && e.path !== 'other.txt'), rdir('shared')];
    const ops = run({ local: l, remote, journal: j, unreadable: [{ path: 'shared', side: 'remote' }] });
    expect(ops.filter((op) => /delete|over the local/.test(op))).toEqual([]);
  });
});
