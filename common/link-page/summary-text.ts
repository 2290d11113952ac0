import type { LinkSummary } from '../api/sharing';
import { fileKindLook } from '../files/kind-look';
import { formatDateTime } from '../format/date';
import { formatSize } from '../format/size';

/** The words of a link's summary, the same whoever draws it (the server's page or the React one). */
export interface LinkSummaryText {
  sharer: string;
  /** The sharer's first character, in the circle that stands for them (a visitor sees no one's picture). */
  initial: string;
  /** After the sharer's name: " 给你分享了文件". */
  shared: string;
  /** Size and kind: "12 KB · PDF 文档" (a folder: its kind only). */
  detail: string;
  /** "有效期至 …" or "永久有效", with " · 仅可在线预览" for a preview-only link. */
  expiry: string;
}

/** Times in the reader's local time: the server writes its own, the page its visitor's when it takes over. */
export function linkSummaryText(summary: LinkSummary): LinkSummaryText {
  const sharer = summary.sharedBy.nickName || '分享者';
  const label = fileKindLook(summary.kind).label;
  return {
    sharer,
    initial: [...sharer][0] ?? '?',
    shared: ` 给你分享了${summary.isDir ? '文件夹' : '文件'}`,
    detail: summary.size === null ? label : `${formatSize(summary.size)} · ${label}`,
    expiry: (summary.expiresAt === null ? '永久有效' : `有效期至 ${formatDateTime(summary.expiresAt)}`) + (summary.previewOnly ? ' · 仅可在线预览' : ''),
  };
}

/** A link revoked, expired or never issued: what its page says (the server's and the React one). */
export const LINK_GONE_TEXT = { title: '分享链接已失效', detail: '该链接不存在、已被分享者取消或已过期。如仍需要文件，请联系分享者重新分享。' } as const;
