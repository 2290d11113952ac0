/**
 * What the scan could not take, as the observation hands it to the planner (workers/sync/observe.ts):
 * a folder or file that could not be read, or that vanished mid-scan, is a hole (its subtree frozen,
 * deletes elsewhere held); a symbolic link is skipped, never a hole — a folder with a link in it
 * would otherwise hold every delete for good.
 */
import { describe, expect, it } from 'vitest';
import type { LocalEntry } from '../../workers/sync/model';
import { observeLocal } from '../../workers/sync/observe';
import type { LocalFs, RemoteApi, ScanIssue } from '../../workers/sync/ports';
import { SyncLog } from '../../workers/sync/sync-log';

const entries: LocalEntry[] = [{ path: 'docs', isDir: true, size: 0, mtimeMs: 0, fileId: 'd1' }];

async function observe(issues: ScanIssue[]) {
  const log = new SyncLog(() => 0);
  log.beginPass();
  const deps = {
    fs: {} as LocalFs,
    remote: {} as RemoteApi,
    log,
    chunkSize: 1024,
    isIgnored: () => false,
    verdicts: new Map(),
    readConcurrency: 1,
    checkPolicy: false,
    signal: new AbortController().signal,
  };
  const observed = await observeLocal(deps, { entries, issues }, [], []);
  log.endPass();
  return { observed, lists: log.lists() };
}

describe('observe: scan issues', () => {
  it('an unreadable folder is a hole, in the fail list with its reason', async () => {
    const { observed, lists } = await observe([{ path: 'locked', kind: 'unreadable', reason: '没有权限读取文件夹“locked”' }]);
    expect(observed.unreadable).toEqual([{ path: 'locked', side: 'local' }]);
    expect(observed.unsettled).toBe(true);
    expect(lists.failList.map((i) => [i.path, i.reason])).toEqual([['locked', '没有权限读取文件夹“locked”']]);
  });

  it('a path that vanished mid-scan is a hole, waiting (not failed) with why', async () => {
    const { observed, lists } = await observe([{ path: 'saving.docx', kind: 'vanished', reason: '文件“saving.docx”在扫描过程中被移走或删除：下次同步时重新检查' }]);
    expect(observed.unreadable).toEqual([{ path: 'saving.docx', side: 'local' }]);
    expect(lists.failList).toEqual([]);
    expect(lists.syncList.map((i) => [i.path, i.state, i.action])).toEqual([['saving.docx', 'unstable', '文件“saving.docx”在扫描过程中被移走或删除：下次同步时重新检查']]);
  });

  it('a symbolic link is skipped and listed, never a hole', async () => {
    const { observed, lists } = await observe([{ path: 'link', kind: 'symlink', reason: '符号链接不同步（已跳过）' }]);
    expect(observed.unreadable).toEqual([]);
    expect(observed.frozen.has('link')).toBe(true);
    expect(observed.unsettled).toBe(false);
    expect(lists.skippedList.map((i) => i.path)).toEqual(['link']);
  });
});
