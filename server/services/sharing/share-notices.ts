import type { FileMessageDetail, FileMessageType } from '../../../common/api/notices';
import type { ShareRecipient } from '../../../common/api/sharing';
import type { FileRepository } from '../../repositories/file-repository';
import type { ShareRepository } from '../../repositories/share-repository';
import type { SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import type { NoticeEvents } from '../notices';
import type { ApplicationEvent, ShareEvents } from './share-events';

/**
 * Sharing's events as file messages (issue 16's NoticeEvents port): who a share reaches hears of it
 * (share.received / changed / revoked), the link's owner of downloads (batched per hour by the
 * notices), an approver of an application waiting for them (apply.pending), the applicant of the
 * decision (apply.approved / rejected, from the approver, with their comment), and of its progress
 * (apply.forwarded: the first level passed it on, to whom; apply.expired: nobody decided in time). Application messages
 * name the application's first entry. Runs after the change committed and never throws: a message
 * that fails is logged and the share stands.
 */
export function shareNotices(
  notices: NoticeEvents,
  deps: { lookup: SharingLookupRepository; files: FileRepository; shares: ShareRepository },
  onError: (err: unknown) => void,
): ShareEvents {
  const run = (work: () => Promise<unknown>): void => void work().catch(onError);

  async function entry(tenantId: string, id: string): Promise<{ id: string; name: string; isDir: boolean } | null> {
    const row = await deps.files.findInTenant(tenantId, id);
    return row ? { id: row.id, name: row.name, isDir: row.is_dir === 1 } : null;
  }

  async function aboutShare(tenantId: string, type: FileMessageType, actorId: string, fileIds: readonly string[], recipients: readonly ShareRecipient[], detail: { permission?: string; expiresAt?: number | null }, refId: string | null): Promise<void> {
    const people = await deps.lookup.reachedPeople(tenantId, recipients);
    const first = fileIds[0] ? await entry(tenantId, fileIds[0]) : null;
    if (people.length === 0 || !first) return;
    await notices.notify({ tenantId, type, recipients: people, actor: { id: actorId }, file: first, itemCount: fileIds.length, detail, refId });
  }

  /**
   * An application's message names its first entry (and how many) as the application does, who acted
   * (the applicant to an approver, the approver to the applicant) and, for a decision, the comment.
   */
  async function aboutApplication(e: ApplicationEvent, type: FileMessageType, recipients: readonly string[], actor: { id: string } | null, detail: FileMessageDetail): Promise<void> {
    const first = e.fileIds[0] ? await entry(e.tenantId, e.fileIds[0]) : null;
    await notices.notify({ tenantId: e.tenantId, type, recipients, actor, file: first, itemCount: Math.max(1, e.fileIds.length), detail: { applyKind: e.kind, ...detail }, refId: e.applicationId });
  }

  async function nameOf(tenantId: string, userId: string): Promise<string | null> {
    return (await deps.lookup.anyPeople(tenantId, [userId]))[0]?.nick_name || null;
  }

  return {
    shared: (e) => run(() => aboutShare(e.tenantId, 'share.received', e.sharerId, e.fileIds, e.recipients, { permission: e.permission }, null)),
    shareChanged: (e) => run(() => aboutShare(e.tenantId, 'share.changed', e.sharerId, [e.fileId], [e.recipient], { permission: e.permission, expiresAt: e.expiresAt }, e.shareId)),
    sharesRevoked: (e) =>
      run(async () => {
        for (const s of await deps.shares.findMany(e.tenantId, e.shareIds)) {
          await aboutShare(e.tenantId, 'share.revoked', e.sharerId, [s.file_id], [{ type: s.recipient_type, id: s.recipient_id }], {}, s.id);
        }
      }),
    linkDownloaded: (e) =>
      run(async () => {
        const first = e.fileIds[0] ? await entry(e.tenantId, e.fileIds[0]) : null;
        if (!first) return;
        const visitor = e.visitorId ? (await deps.lookup.anyPeople(e.tenantId, [e.visitorId]))[0] : undefined;
        await notices.linkDownloaded({ tenantId: e.tenantId, linkId: e.linkId, ownerId: e.ownerId, file: first, visitor: visitor ? { id: visitor.id, name: visitor.nick_name } : null });
      }),
    applicationSubmitted: (e) => run(() => aboutApplication(e, 'apply.pending', [e.approverId], { id: e.applicantId }, {})),
    applicationChanged: (e) =>
      run(async () => {
        if (e.state === 'pending' && e.nextApproverId) {
          await aboutApplication(e, 'apply.pending', [e.nextApproverId], { id: e.applicantId }, {});
          // The applicant hears that the first level passed it on, from whom, with what comment, to whom.
          const next = await nameOf(e.tenantId, e.nextApproverId);
          await aboutApplication(e, 'apply.forwarded', [e.applicantId], e.deciderId ? { id: e.deciderId } : null, { ...(e.comment ? { comment: e.comment } : {}), ...(next ? { nextApprover: next } : {}) });
        } else if (e.state === 'expired') {
          const waited = e.waitedForId ? await nameOf(e.tenantId, e.waitedForId) : null;
          await aboutApplication(e, 'apply.expired', [e.applicantId], null, waited ? { waitedFor: waited } : {});
        } else if (e.state === 'approved' || e.state === 'rejected') {
          await aboutApplication(e, e.state === 'approved' ? 'apply.approved' : 'apply.rejected', [e.applicantId], e.deciderId ? { id: e.deciderId } : null, e.comment ? { comment: e.comment } : {});
        }
      }),
  };
}
