import { Alert, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { previewModeOf } from '../../../common/api/byte-access';
import { ERRORS } from '../../../common/api/errors';
import { linkPreviewUrl, linkThumbnailUrl } from '../../../common/api/paths';
import type { LinkEntry } from '../../../common/api/sharing';
import { WatermarkOverlay } from '../../components/WatermarkOverlay';
import { assertPreviewOk, PreviewFailure } from '../../lib/preview-failure';

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
 * on our origin). Through a preview-only link, pictures come watermarked from the server and PDF and
 * text get the watermark drawn over them.
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
    <Modal open={entry !== null} title={entry?.name} onCancel={onClose} footer={null} width={mode === 'pdf' || mode === 'video' ? 960 : 720} destroyOnHidden>
      <div data-testid="link-preview" data-mode={mode ?? 'none'} style={{ display: 'flex', justifyContent: 'center', minHeight: 120 }}>
        {entry && mode === 'image' && (
          <img src={watermark ? linkPreviewUrl(entry.id, visit) : linkThumbnailUrl(entry.id, visit)} alt={entry.name} data-testid="link-preview-image" style={{ maxWidth: '100%', maxHeight: '65vh', objectFit: 'contain' }} />
        )}
        {entry && (mode === 'pdf' || mode === 'text') && (
          <WatermarkOverlay text={watermark}>
            <Fetched url={linkPreviewUrl(entry.id, visit)} kind={mode} name={entry.name} />
          </WatermarkOverlay>
        )}
        {entry && mode === 'audio' && <audio controls src={linkPreviewUrl(entry.id, visit)} style={{ width: '100%' }} />}
        {entry && mode === 'video' && <video controls src={linkPreviewUrl(entry.id, visit)} style={{ maxWidth: '100%', maxHeight: '70vh' }} />}
        {entry && mode === null && <Alert type="info" showIcon message={ERRORS.PREVIEW_UNSUPPORTED.message} data-testid="link-preview-unsupported" />}
      </div>
    </Modal>
  );
}

function Fetched({ url, kind, name }: { url: string; kind: 'pdf' | 'text'; name: string }) {
  const [state, setState] = useState<{ text?: string; url?: string; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(url, { credentials: 'include', signal: controller.signal, referrerPolicy: 'no-referrer' })
      .then(async (res) => {
        await assertPreviewOk(res, '无法加载预览');
        if (kind === 'text') return setState({ text: await res.text() });
        objectUrl = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'application/pdf' }));
        setState({ url: objectUrl });
      })
      .catch((e: unknown) => {
        // The server's coded refusal says why (该文件类型不支持预览…), else the generic failure.
        if (!controller.signal.aborted) setState({ error: e instanceof PreviewFailure ? e.message : '无法加载预览' });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, kind]);
  if (state.error) return <Alert type="error" showIcon message={state.error} />;
  if (state.text !== undefined) {
    return (
      <pre data-testid="link-preview-text" style={{ width: '100%', maxHeight: '65vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', background: '#fafafa', padding: 12, margin: 0 }}>
        {state.text}
      </pre>
    );
  }
  if (state.url) return <iframe title={name} src={state.url} style={{ width: '100%', height: '70vh', border: 'none' }} />;
  return <Spin />;
}
