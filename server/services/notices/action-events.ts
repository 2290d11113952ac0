import type { ActionCode } from '../../../common/api/action-codes';
import type { FileMessageType } from '../../../common/api/notices';
import { FILE_CATEGORY } from '../../../common/api/types';
import type { NoticeFileRepository } from '../../repositories/notice-file-repository';
import type { ActionObserver } from '../action-log-service';
import type { ActionEntry } from '../action-log/recorder';
import type { Caller } from '../caller';
import type { FileMessageService } from './file-message-service';

/** File actions whose watchers hear of them, as the message type they get. */
const CHANGE_TYPES: Partial<Record<ActionCode, FileMessageType>> = {
  'file.versionNew': 'file.version',
  'file.versionRestore': 'file.version',
  'file.lock': 'file.locked',
  'file.move': 'file.moved',
  'file.delete': 'file.deleted',
};

/** Actions after which the actor's used space may have crossed the quota warning (either way). */
const QUOTA_ACTIONS: ReadonlySet<ActionCode> = new Set(['file.upload', 'file.versionNew', 'file.createTxt', 'file.copy', 'file.restore', 'file.versionRestore', 'file.purge', 'file.delete']);

const CATEGORY_NAMES: Record<number, string> = {
  [FILE_CATEGORY.personal]: '个人文件',
  [FILE_CATEGORY.shared]: '共享文件',
  [FILE_CATEGORY.exchange]: '其他',
};

const entryIds = (e: ActionEntry): string[] => (e.targets ?? []).filter((t) => (t.type === 'file' || t.type === 'folder') && t.id !== '').map((t) => t.id);

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);

/**
 * Someone added to a group (not a role change of a member: previousRole null) hears who added them
 * to which group; the message opens the group space.
 */
async function groupAdded(messages: FileMessageService, caller: Caller, entry: ActionEntry): Promise<void> {
  const group = entry.targets?.find((t) => t.type === 'group');
  const user = entry.targets?.find((t) => t.type === 'user');
  if (!group || !user?.id || entry.detail?.previousRole) return;
  await messages.notify({ tenantId: caller.tenantId, type: 'group.added', recipients: [user.id], actor: { id: caller.userId }, refId: group.id, detail: { group: group.name } });
}

/**
 * The file half of the notices' producers: the action log already states, once per request and only
 * for what was done, every file change with its entries — so the messages follow from it rather than
 * from a call in each file service (upload, second upload, batch, createTxt, version restore, lock,
 * move, delete), and a member added to a group (group.memberAdd → group.added). Sharing's events
 * come through the NoticeEvents port instead.
 */
export function fileActionObserver(messages: FileMessageService, repo: NoticeFileRepository): ActionObserver {
  return async (done, caller) => {
    let quota = false;
    for (const entry of done) {
      if (QUOTA_ACTIONS.has(entry.action)) quota = true;
      const detail = entry.detail ?? {};
      if (entry.action === 'group.memberAdd') {
        await groupAdded(messages, caller, entry);
        continue;
      }
      let type = CHANGE_TYPES[entry.action];
      let ids = entryIds(entry);
      // A batch of small files names its new versions (batch-upload-service.ts).
      if (entry.action === 'file.upload' && detail.method === 'batch') {
        type = 'file.version';
        ids = stringList(detail.newVersionIds);
      }
      if (!type || ids.length === 0) continue;
      if (type === 'file.moved') {
        const spaceId = typeof detail.spaceId === 'string' ? detail.spaceId : null;
        const to = typeof detail.parentName === 'string' && detail.parentName !== ''
          ? detail.parentName
          : spaceId ? await repo.spaceName(caller.tenantId, spaceId) : (CATEGORY_NAMES[Number(detail.category)] ?? '同步文件');
        // The members of a group the entries left hear of it too (they may no longer see where to).
        const fromSpaces = stringList(detail.fromSpaceIds).filter((id) => id !== spaceId);
        const former = [...(await repo.spaceMembers(fromSpaces)).values()].flat();
        await messages.entriesChanged(caller.tenantId, type, caller.userId, ids, { to }, former);
      } else {
        await messages.entriesChanged(caller.tenantId, type, caller.userId, ids);
      }
    }
    if (quota) await messages.checkQuota(caller.userId);
  };
}
