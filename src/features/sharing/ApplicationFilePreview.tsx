import { Alert } from 'antd';
import { previewModeOf, type ByteGrant, type PreviewMode } from '../../../common/api/byte-access';
import { ERRORS } from '../../../common/api/errors';
import { applicationPreviewUrl, previewUrl } from '../../../common/api/paths';
import type { SharedEntryRef, ShareApplication } from '../../../common/api/sharing';
import type { UserDetails } from '../../../common/api/types';
import { FetchedRendition } from '../../components/FetchedRendition';
import { WatermarkOverlay } from '../../components/WatermarkOverlay';
import { DocumentPreview } from '../../components/document/DocumentPreview';
import { viewerWatermark } from '../../lib/watermark-text';

/**
 * Who looks at an application's files, and through which grant (common/api/byte-access.ts): its
 * applicant, their own files (the file preview route); its current approver while it waits, the
 * files it names, view only with their account and the time over the content (the approver's route,
 * grant `approval`). Anyone else — and an approver once it is decided — sees names only.
 */
export interface ApplicationViewer {
  as: 'applicant' | 'approver';
  url(fileId: string): string;
  /** How the file shows for this viewer; null: no rendition (a folder, a deleted file, a type with none). */
  mode(file: SharedEntryRef): PreviewMode | null;
  watermark: string | null;
}

export function viewerOf(app: ShareApplication, me: Pick<UserDetails, 'id' | 'website' | 'nickName'>): ApplicationViewer | null {
  const modeFor = (grant: ByteGrant) => (f: SharedEntryRef) => (f.isDir || f.deleted ? null : previewModeOf(f.name, grant));
  if (app.applicant.id === me.id) return { as: 'applicant', url: previewUrl, mode: modeFor({ via: 'own' }), watermark: null };
  if (app.state === 'pending' && app.approver?.id === me.id) {
    return { as: 'approver', url: (id) => applicationPreviewUrl(id, app.id), mode: modeFor({ via: 'approval' }), watermark: viewerWatermark(me, Date.now()) };
  }
  return null;
}

/** One file of the application shown in its drawer (the same renditions as every other preview). */
export function ApplicationFilePreview({ file, viewer }: { file: SharedEntryRef; viewer: ApplicationViewer }) {
  const mode = viewer.mode(file);
  const url = viewer.url(file.id);
  return (
    <section style={{ marginTop: 16 }} data-testid="application-file-preview" data-mode={mode ?? 'none'} data-file-id={file.id}>
      <h4 style={{ margin: '0 0 8px', overflowWrap: 'anywhere' }}>文件预览 · {file.name}</h4>
      <div style={{ display: 'flex', justifyContent: 'center', minHeight: 80 }}>
        {mode === 'image' && <img src={url} alt={file.name} style={{ maxWidth: '100%', maxHeight: '50vh', objectFit: 'contain' }} data-testid="application-preview-image" />}
        {mode === 'pdf' && <DocumentPreview key={file.id} url={url} name={file.name} watermark={viewer.watermark} height="min(60vh, 720px)" />}
        {(mode === 'text' || mode === 'csv') && (
          <WatermarkOverlay text={viewer.watermark}>
            <FetchedRendition url={url} testId="application-preview-text" />
          </WatermarkOverlay>
        )}
        {mode === 'audio' && <audio controls src={url} style={{ width: '100%' }} />}
        {mode === 'video' && <video controls src={url} style={{ maxWidth: '100%', maxHeight: '50vh' }} />}
        {mode === null && <Alert type="info" showIcon title={ERRORS.PREVIEW_UNSUPPORTED.message} />}
      </div>
      {viewer.as === 'approver' && <div style={{ color: '#999', fontSize: 12, marginTop: 4 }}>仅供审批查看，不能下载</div>}
    </section>
  );
}
