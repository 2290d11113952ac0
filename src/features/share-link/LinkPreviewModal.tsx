import { Alert, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { linkPreviewUrl, linkThumbnailUrl } from '../../../common/api/paths';
import type { LinkEntry } from '../../../common/api/sharing';
import { WatermarkOverlay } from '../../components/WatermarkOverlay';

type Mode = 'image' | 'pdf' | 'text' | 'audio' | 'video';

const TEXT_MAX = 2 * 1024 * 1024;

export function linkPreviewMode(e: LinkEntry): Mode | null {
  if (e.isDir) return null;
  if (e.kind === 'picture') return /\.svgz?$/i.test(e.name) ? null : 'image';
  if (e.kind === 'pdf') return 'pdf';
  if (e.kind === 'txt') return e.size <= TEXT_MAX ? 'text' : null;
  if (e.kind === 'music') return 'audio';
  if (e.kind === 'video') return 'video';
  return null;
}

/**
 * A file of a share link shown inline (the same rules as the file pages' preview: no user content runs
 * on our origin). Through a preview-only link, pictures come watermarked from the server and PDF and
 * text get the watermark drawn over them.
 */
export function LinkPreviewModal({ entry, visit, watermark, onClose }: { entry: LinkEntry | null; visit: string; watermark: string | null; onClose: () => void }) {
  const mode = entry ? linkPreviewMode(entry) : null;
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
        {entry && mode === null && <Alert type="info" showIcon message="该类型的文件不支持预览" />}
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
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        if (kind === 'text') return setState({ text: await res.text() });
        objectUrl = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'application/pdf' }));
        setState({ url: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ error: '无法加载预览' });
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
