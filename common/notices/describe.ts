/**
 * The sentence a file message says (the list, the desktop notification): one function for every
 * client, from the structured message the server answers. Names appear only when the server sent
 * them (the reader may still reach the entry); otherwise the sentence says the entry is out of reach.
 */
import { formatSize } from '../format/size';
import type { FileMessage } from '../api/notices';

const PERMISSIONS: Record<string, string> = { preview: '预览', download: '下载', edit: '编辑' };

/** 「名称」 (and how many more), or what to say when the reader may no longer see it. */
export function subjectOf(m: Pick<FileMessage, 'file' | 'itemCount'>): string {
  if (!m.file) return '';
  if (!m.file.available || m.file.name === null) return m.itemCount > 1 ? `${m.itemCount} 项你已无权查看的内容` : '你已无权查看的文件';
  const more = m.itemCount > 1 ? ` 等 ${m.itemCount} 项` : '';
  return `「${m.file.name}」${more}`;
}

/** 分享 / 外链分享, as the application asked (old messages do not say: 分享). */
function applied(d: FileMessage['detail']): string {
  return d.applyKind === 'link' ? '外链分享' : '分享';
}

export function describeFileMessage(m: Pick<FileMessage, 'type' | 'actor' | 'file' | 'itemCount' | 'detail'>): string {
  const who = m.actor?.nickName || '有人';
  const what = subjectOf(m) || '文件';
  const d = m.detail;
  switch (m.type) {
    case 'share.received':
      return `${who} 向你分享了 ${what}${d.permission ? `（可${PERMISSIONS[d.permission] ?? d.permission}）` : ''}`;
    case 'share.changed':
      return `${who} 修改了 ${what} 的分享${d.permission ? `，现为可${PERMISSIONS[d.permission] ?? d.permission}` : ''}`;
    case 'share.expired':
      return `${what} 的分享已到期`;
    case 'share.revoked':
      return `${who} 取消了 ${what} 的分享`;
    case 'apply.approved': {
      // Messages written before the file and the approver were stored name neither: the sentence still stands.
      const subject = `${m.file ? `你对 ${what} 的` : '你的'}${applied(d)}申请`;
      const said = d.comment ? `，审批意见：${d.comment}` : '';
      return m.actor?.nickName ? `${m.actor.nickName} 通过了${subject}${said}` : `${subject}已通过${said}`;
    }
    case 'apply.rejected': {
      const subject = `${m.file ? `你对 ${what} 的` : '你的'}${applied(d)}申请`;
      const why = d.comment ?? d.reason;
      return m.actor?.nickName ? `${m.actor.nickName} 驳回了${subject}${why ? `，理由：${why}` : ''}` : `${subject}被驳回${why ? `：${why}` : ''}`;
    }
    case 'apply.forwarded': {
      const said = d.comment ? `，审批意见：${d.comment}` : '';
      const next = d.nextApprover ? `，已转交 ${d.nextApprover} 进行第二级审批` : '，等待第二级审批';
      return `${m.actor?.nickName || '一级审批人'} 通过了你对 ${what} 的${applied(d)}申请（第一级）${said}${next}`;
    }
    case 'apply.expired':
      return `你对 ${what} 的${applied(d)}申请已过期${d.waitedFor ? `（${d.waitedFor} 未在期限内审批）` : ''}，如仍需要请重新申请`;
    case 'apply.pending':
      return m.file ? `${who} 申请${d.applyKind === 'link' ? '外链分享' : '分享'} ${what}，等待你审批` : `${who} 提交了${applied(d)}申请，等待你审批`;
    case 'link.downloaded':
      return `你分享的 ${what} 的链接被下载了 ${d.downloads ?? 1} 次`;
    case 'file.version':
      return `${who} 上传了 ${what} 的新版本`;
    case 'file.locked':
      return `${who} 锁定了 ${what}`;
    case 'file.moved':
      return `${who} 移动了 ${what}${d.to && m.file?.available ? `到「${d.to}」` : ''}`;
    case 'file.deleted':
      return `${who} 删除了 ${what}`;
    case 'upload.sensitive':
      return `你上传的 ${what} 含有敏感词${d.reason ? `「${d.reason}」` : ''}，已被拦截，请在传输列表中处理`;
    case 'group.added':
      return `${who} 把你加入了群组「${d.group || '（已删除的群组）'}」`;
    case 'quota.high':
      return `你的空间已使用 ${d.percent ?? 90}%${d.used !== undefined && d.quota ? `（${formatSize(d.used)} / ${formatSize(d.quota)}）` : ''}，请及时清理`;
  }
}
