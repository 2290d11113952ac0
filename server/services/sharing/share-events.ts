import type { SharePermission, ShareRecipient } from '../../../common/api/sharing';

/**
 * What sharing tells the rest of the system when something happened that people should hear about.
 * The action log records every step already (services record it); notices (issue 16) implement this
 * interface to turn the events into file messages. Calls happen after the change committed; an
 * implementation must not throw (a notice that fails must not undo a share).
 */
export interface ShareEvents {
  shared(e: { tenantId: string; sharerId: string; fileIds: string[]; recipients: ShareRecipient[]; permission: SharePermission }): void;
  shareChanged(e: { tenantId: string; sharerId: string; shareId: string; fileId: string; recipient: ShareRecipient; permission: SharePermission; expiresAt: number | null }): void;
  sharesRevoked(e: { tenantId: string; sharerId: string; shareIds: string[] }): void;
  linkDownloaded(e: { tenantId: string; linkId: string; ownerId: string; fileIds: string[]; visitorId: string | null }): void;
  applicationSubmitted(e: ApplicationEvent & { approverId: string }): void;
  /**
   * A level was approved and passed on (`nextApproverId`), or the application ended (approved,
   * rejected, withdrawn, expired). `deciderId` and `comment`: who approved or rejected it, and what
   * they wrote (null / '' for a withdrawal or an expiry); `waitedForId`: whom an expired one waited for.
   */
  applicationChanged(e: ApplicationEvent & { state: string; nextApproverId: string | null; deciderId: string | null; comment: string; waitedForId?: string | null }): void;
}

/** What every application event names: the application, its applicant, what it asks for and for which entries. */
export interface ApplicationEvent {
  tenantId: string;
  applicationId: string;
  applicantId: string;
  kind: 'share' | 'link';
  fileIds: readonly string[];
}

/** Until notices exist: nothing more than the action log. */
export const NO_SHARE_EVENTS: ShareEvents = {
  shared: () => undefined,
  shareChanged: () => undefined,
  sharesRevoked: () => undefined,
  linkDownloaded: () => undefined,
  applicationSubmitted: () => undefined,
  applicationChanged: () => undefined,
};
