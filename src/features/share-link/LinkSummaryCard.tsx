import type { LinkSummary } from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { FileKindIcon } from '../../components/FileKindIcon';
import { fileKindLook } from '../../components/file-kind-look';

/** The sharer's first character in a circle (a visitor is shown no one's picture). */
function Initial({ name }: { name: string }) {
  return (
    <span
      aria-hidden
      style={{ width: 36, height: 36, flex: 'none', borderRadius: '50%', background: '#e6f0ff', color: '#0958d9', display: 'inline-flex', alignItems: 'center', justifyContent: 'center', fontSize: 16, fontWeight: 600 }}
    >
      {[...name][0] ?? '?'}
    </span>
  );
}

/**
 * Who shared what, until when: the link page before the code (what it may say is decided on the
 * server, common/api/sharing.ts LinkSummary: never what a folder holds).
 */
export function LinkSummaryCard({ summary }: { summary: LinkSummary }) {
  const sharer = summary.sharedBy.nickName || '分享者';
  const look = fileKindLook(summary.kind);
  return (
    <section data-testid="link-summary" aria-label="分享的内容" style={{ marginBottom: 20 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 10, marginBottom: 12 }}>
        <Initial name={sharer} />
        <div style={{ minWidth: 0, lineHeight: 1.4 }}>
          <strong data-testid="link-sharer" style={{ fontSize: 15, overflowWrap: 'anywhere' }}>{sharer}</strong>
          <span style={{ color: 'rgba(0,0,0,0.62)' }}> 给你分享了{summary.isDir ? '文件夹' : '文件'}</span>
        </div>
      </div>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, padding: '12px 14px', border: '1px solid #eef0f3', borderRadius: 8, background: '#fafbfc' }}>
        <FileKindIcon kind={summary.kind} size={36} />
        <div style={{ minWidth: 0 }}>
          <div data-testid="link-file-name" style={{ fontSize: 15, fontWeight: 500, overflowWrap: 'anywhere' }}>
            {summary.name}
          </div>
          <div style={{ color: 'rgba(0,0,0,0.62)', fontSize: 13, marginTop: 2 }}>
            {summary.size === null ? look.label : `${formatSize(summary.size)} · ${look.label}`}
          </div>
        </div>
      </div>
      <div data-testid="link-expiry" style={{ color: 'rgba(0,0,0,0.62)', fontSize: 13, marginTop: 8 }}>
        {summary.expiresAt === null ? '永久有效' : `有效期至 ${formatDateTime(summary.expiresAt)}`}
        {summary.previewOnly && ' · 仅可在线预览'}
      </div>
    </section>
  );
}
