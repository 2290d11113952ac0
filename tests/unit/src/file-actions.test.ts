import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../common/api/types';
import { ALL_PERMISSIONS } from '../../../server/services/config-service';
import { ACTION_PERMISSIONS, actionBlocked, actionsFor, OFFLINE_REASON, openBlocked, PAGE_PERMISSIONS, type ActionContext } from '../../../src/features/files/actions/file-actions';

function entry(over: Partial<FileEntry> = {}): FileEntry {
  return {
    id: 'f',
    parentId: null,
    name: 'a.txt',
    isDir: false,
    size: 1,
    kind: 'txt',
    category: 1,
    spaceId: null,
    ownerId: 'me',
    createdAt: 0,
    updatedAt: 0,
    encrypted: false,
    deleted: false,
    deletedAt: null,
    expiresAt: null,
    expired: false,
    sensitive: false,
    locked: false,
    lockedBy: null,
    favorite: false,
    versionCount: 0,
    ...over,
  };
}

const me: ActionContext = { mode: 'folder', callerId: 'me', isAdmin: false };
const names = (list: ReturnType<typeof actionsFor>) => list.map((o) => o.action);
const reason = (list: ReturnType<typeof actionsFor>, action: string) => list.find((o) => o.action === action)?.disabledReason;

describe('file actions offered for a selection', () => {
  it('a single file: preview, download, the §3 suggested actions, favorites and versions', () => {
    expect(names(actionsFor([entry()], me))).toEqual(['preview', 'download', 'share', 'rename', 'move', 'copy', 'delete', 'favorite', 'lock', 'uploadVersion', 'versions']);
  });

  it('a folder opens and downloads as a zip; several entries get batch actions only', () => {
    expect(names(actionsFor([entry({ isDir: true, kind: 'folder' })], me))).toEqual(['open', 'zip', 'share', 'rename', 'move', 'copy', 'delete', 'favorite', 'lock']);
    expect(names(actionsFor([entry({ id: 'a' }), entry({ id: 'b', favorite: true })], me))).toEqual(['zip', 'share', 'move', 'copy', 'delete', 'favorite', 'unfavorite', 'lock']);
    expect(actionsFor([], me)).toEqual([]);
  });

  it('a file locked by someone else is shown but cannot be changed; its locker and admins can', () => {
    const locked = entry({ locked: true, lockedBy: { id: 'other', nickName: '张三' } });
    const offered = actionsFor([locked], me);
    for (const a of ['rename', 'move', 'delete', 'uploadVersion']) expect(reason(offered, a)).toBe('文件已被他人锁定');
    expect(reason(offered, 'copy')).toBeNull();
    expect(reason(offered, 'unlock')).toBe('只有锁定者或管理员可以解锁');
    expect(names(offered)).not.toContain('lock');
    expect(reason(actionsFor([locked], { ...me, isAdmin: true }), 'rename')).toBeNull();
    const mine = entry({ locked: true, lockedBy: { id: 'me', nickName: '我' } });
    expect(reason(actionsFor([mine], me), 'unlock')).toBeNull();
    expect(reason(actionsFor([mine], me), 'rename')).toBeNull();
  });

  it('in a space, a member changes only their own entries; managers change any', () => {
    const theirs = entry({ spaceId: 's', ownerId: 'other' });
    expect(reason(actionsFor([theirs], { ...me, spaceRole: 'member' }), 'rename')).toBe('只能修改自己上传的文件');
    expect(reason(actionsFor([theirs], { ...me, spaceRole: null }), 'delete')).toBe('只能修改自己上传的文件');
    expect(reason(actionsFor([theirs], { ...me, spaceRole: 'manager' }), 'rename')).toBeNull();
    expect(reason(actionsFor([entry({ spaceId: 's' })], { ...me, spaceRole: 'member' }), 'rename')).toBeNull();
  });

  it('publicDownLoad off: the public space\'s files preview but neither download nor zip; copies stay offered (inside the space they are allowed)', () => {
    const pub = entry({ spaceId: 'pub', ownerId: 'other' });
    const off = { ...me, spaceRole: null, publicDownloadOff: 'pub' };
    const offered = actionsFor([pub], off);
    expect(reason(offered, 'download')).toBe('管理员已关闭公共空间下载');
    expect(reason(actionsFor([pub, entry({ id: 'g' })], off), 'zip')).toBe('管理员已关闭公共空间下载');
    expect(reason(offered, 'preview')).toBeNull();
    expect(reason(offered, 'copy')).toBeNull();
    expect(reason(actionsFor([entry({ spaceId: 'grp' })], off), 'download')).toBeNull();
    expect(reason(actionsFor([pub], { ...off, publicDownloadOff: null }), 'download')).toBeNull();
  });

  it('the recycle bin offers restore and purge; lists outside a folder offer the location', () => {
    expect(names(actionsFor([entry({ deleted: true })], { ...me, mode: 'recycle' }))).toEqual(['restore', 'purge']);
    expect(names(actionsFor([entry()], { ...me, mode: 'search' }))).toContain('openLocation');
    expect(names(actionsFor([entry()], me))).not.toContain('openLocation');
  });

  it('every gating code is one the server hands out', () => {
    const codes = [...Object.values(ACTION_PERMISSIONS), ...Object.values(PAGE_PERMISSIONS)].filter((c): c is string => c !== null);
    for (const code of codes) expect(ALL_PERMISSIONS).toContain(code);
  });

  it('through a share: preview-only takes nothing away; edit renames inside and gives new versions; the rest is the owner’s', () => {
    const share = (permission: 'preview' | 'download' | 'edit', over: Partial<FileEntry> = {}) =>
      entry({ ownerId: 'owner', share: { permission, sharedBy: { id: 'owner', nickName: '张三' }, sharedAt: 0, expiresAt: null, rootId: 'root' }, ...over });
    const preview = actionsFor([share('preview')], me);
    for (const a of ['download', 'copy']) expect(reason(preview, a), a).toBe('该分享仅允许预览');
    expect(reason(preview, 'preview')).toBeNull();
    for (const a of ['move', 'delete', 'lock']) expect(reason(preview, a), a).toBe('共享的文件只能由所有者修改');
    expect(names(preview)).not.toContain('share');
    expect(reason(preview, 'rename')).toBe('没有编辑权限');
    const edit = actionsFor([share('edit')], me);
    expect(reason(edit, 'rename')).toBeNull();
    expect(reason(edit, 'uploadVersion')).toBeNull();
    expect(reason(edit, 'download')).toBeNull();
    expect(reason(actionsFor([share('edit', { id: 'root', isDir: true, kind: 'folder' })], me), 'rename')).toBe('共享的文件夹本身不能重命名');
  });

  it('the exchange area: checked from here, not shared; a file from the other build is unusable until it passed', () => {
    const fromOutside = entry({ category: 3, exchange: { side: 'public', state: 'pending', reason: null, checkedAt: null } });
    const inside = { ...me, side: 'internal' as const };
    const offered = actionsFor([fromOutside], inside);
    expect(names(offered)).toContain('swapCheck');
    expect(names(offered)).toContain('safeCheck');
    expect(names(offered)).not.toContain('share');
    expect(reason(offered, 'download')).toBe('尚未通过交换检查，暂不能在当前网络使用');
    const passed = actionsFor([{ ...fromOutside, exchange: { ...fromOutside.exchange!, state: 'passed' } }], inside);
    expect(reason(passed, 'download')).toBeNull();
  });
});

describe('one rule for every way in (issue 44 item 7)', () => {
  it('actionBlocked gives the menu\'s reason: offline, a download is refused as the menu shows it; a rename is kept for later', () => {
    const offline = { ...me, offline: true };
    expect(actionBlocked('download', [entry()], me)).toBeNull();
    expect(actionBlocked('download', [entry()], offline)).toBe(OFFLINE_REASON);
    expect(actionBlocked('download', [entry()], offline)).toBe(reason(actionsFor([entry()], offline), 'download'));
    expect(actionBlocked('rename', [entry()], offline)).toBeNull();
    // Not offered at all (a folder has no single-file download): refused, never run.
    expect(actionBlocked('download', [entry({ isDir: true, kind: 'folder' })], me)).not.toBeNull();
  });

  it('openBlocked: a folder opens offline (from the cache), a file (its preview or download needs the server) does not', () => {
    const offline = { ...me, offline: true };
    expect(openBlocked(entry({ isDir: true, kind: 'folder' }), offline)).toBeNull();
    expect(openBlocked(entry(), offline)).toBe(OFFLINE_REASON);
    expect(openBlocked(entry(), me)).toBeNull();
  });
});
