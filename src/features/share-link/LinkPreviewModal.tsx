import { Alert, Modal } from 'antd';
import { previewModeOf } from '../../../common/api/byte-access';
import { ERRORS } from '../../../common/api/errors';
import { linkPreviewUrl, linkThumbnailUrl } from '../../../common/api/paths';
import type { LinkEntry } from '../../../common/api/sharing';
import { FetchedRendition } from '../../components/FetchedRendition';
import { WatermarkOverlay } from '../../components/WatermarkOverlay';
import { DocumentPreview } from '../../components/document/DocumentPreview';

type Mode = 'image' | 'pdf' | 'text' | 'audio' | 'video';

const TEXT_MAX = 2 * 1024 * 1024;

/** Exactly the files the server has a rendition for through this link (common/api/byte-access.ts); a CSV shows as text. */
export function linkPreviewMode(e: LinkEntry, previewOnly: boolean): Mode | null {
  if (e.isDir) return null;
  const mode = previewModeOf(e.name, { via: 'link', previewOnly });
  if (mode === 'csv' || mode === 'text') return e.size <= TEXT_MAX ? 'text' : null;
  return mode;
}

/**
 * A file of a share link shown inline (the same rules as the file pages' preview: no user content runs
 * on our origin). Through a preview-only link, pictures come watermarked from the server, documents
 * (PDF, an Office file's rendition) get it painted into every page, text gets it drawn over.
 */
export function LinkPreviewModal({
  entry,
  visit,
  previewOnly,
  watermark,
  onClose,
}: {
  entry: LinkEntry | null;
  visit: string;
  previewOnly: boolean;
  watermark: string | null;
  onClose: () => void;
}) {
  const mode = entry ? linkPreviewMode(entry, previewOnly) : null;
  return (
    <Modal open={entry !== null} title={entry?.name} onCancel={onClose} footer={null} width={mode === 'pdf' || mode === 'video' ? 'min(960px, 96vw)' : 720} destroyOnHidden>
      <div data-testid="link-preview" data-mode={mode ?? 'none'} style={{ display: 'flex', justifyContent: 'center', minHeight: 120 }}>
        {entry && mode === 'image' && (
          <img src={watermark ? linkPreviewUrl(entry.id, visit) : linkThumbnailUrl(entry.id, visit)} alt={entry.name} data-testid="link-preview-image" style={{ maxWidth: '100%', maxHeight: '65vh', objectFit: 'contain' }} />
        )}
        {entry && mode === 'pdf' && <DocumentPreview key={entry.id} url={linkPreviewUrl(entry.id, visit)} name={entry.name} watermark={watermark} />}
        {entry && mode === 'text' && (
          <WatermarkOverlay text={watermark}>
            <FetchedRendition url={linkPreviewUrl(entry.id, visit)} testId="link-preview-text" />
          </WatermarkOverlay>
        )}
        {entry && mode === 'audio' && <audio controls src={linkPreviewUrl(entry.id, visit)} style={{ width: '100%' }} />}
        {entry && mode === 'video' && <video controls src={linkPreviewUrl(entry.id, visit)} style={{ maxWidth: '100%', maxHeight: '70vh' }} />}
        {entry && mode === null && <Alert type="info" showIcon message={ERRORS.PREVIEW_UNSUPPORTED.message} data-testid="link-preview-unsupported" />}
      </div>
    </Modal>
  );
}
