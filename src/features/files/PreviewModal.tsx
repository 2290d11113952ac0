import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { downloadUrl, previewUrl, thumbnailUrl } from '../../../common/api/paths';
import type { FileEntry } from '../../../common/api/types';
import { previewModeOf } from './preview-mode';
import { formatDateTime } from '../../../common/format/date';
import { WatermarkOverlay } from '../../components/WatermarkOverlay';
import { useCurrentUser } from '../../lib/current-user';

/**
 * Previews a picture (the server's thumbnail first, the original on demand), a PDF, a text file, an
 * audio or a video in a modal. User content never runs script on the app's origin: pictures and media
 * are <img>/<audio>/<video> elements; text is read as text and shown in a <pre>; a PDF is fetched and
 * shown from a blob: URL typed application/pdf (the browser's PDF viewer, no HTML parsing).
 */
export function PreviewModal({ file, onClose }: { file: FileEntry | null; onClose: () => void }) {
  const mode = file ? previewModeOf(file) : null;
  const user = useCurrentUser();
  // Through a preview-only share: no download here, and the viewer's account and time over the content.
  const previewOnly = file?.share?.permission === 'preview';
  const watermark = previewOnly ? `${user?.website ?? ''} ${formatDateTime(Date.now())}` : null;
  return (
    <Modal
      open={file !== null}
      title={file?.name}
      onCancel={onClose}
      width={mode === 'pdf' || mode === 'video' ? 960 : 720}
      destroyOnHidden
      footer={
        file && !previewOnly ? (
          <Button href={downloadUrl(file.id)} download={file.name} data-testid="preview-download">
            下载
          </Button>
        ) : previewOnly ? (
          <span style={{ color: '#999' }} data-testid="preview-only-note">
            该分享仅允许预览
          </span>
        ) : null
      }
    >
      <div data-testid="preview" data-mode={mode ?? 'none'} style={{ display: 'flex', justifyContent: 'center', minHeight: 120 }}>
        {file && mode === 'image' && <ImagePreview file={file} />}
        {file && mode === 'pdf' && (
          <WatermarkOverlay text={watermark}>
            <FetchedPreview file={file} kind="pdf" />
          </WatermarkOverlay>
        )}
        {file && mode === 'text' && (
          <WatermarkOverlay text={watermark}>
            <FetchedPreview file={file} kind="text" />
          </WatermarkOverlay>
        )}
        {file && mode === 'audio' && <audio controls src={previewUrl(file.id)} data-testid="preview-audio" style={{ width: '100%' }} />}
        {file && mode === 'video' && <video controls src={previewUrl(file.id)} data-testid="preview-video" style={{ maxWidth: '100%', maxHeight: '70vh' }} />}
        {file && mode === null && <Alert type="info" showIcon message="该类型的文件不支持预览，请下载后查看" />}
      </div>
    </Modal>
  );
}

function ImagePreview({ file }: { file: FileEntry }) {
  const [original, setOriginal] = useState(false);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 }}>
      <img
        src={original ? previewUrl(file.id) : thumbnailUrl(file.id)}
        alt={file.name}
        data-testid="preview-image"
        style={{ maxWidth: '100%', maxHeight: '65vh', objectFit: 'contain' }}
      />
      {!original && (
        <Button type="link" onClick={() => setOriginal(true)}>
          查看原图
        </Button>
      )}
    </div>
  );
}

function FetchedPreview({ file, kind }: { file: FileEntry; kind: 'pdf' | 'text' }) {
  const [state, setState] = useState<{ text?: string; url?: string; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetch(previewUrl(file.id), { credentials: 'include', signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        if (kind === 'text') return setState({ text: await res.text() });
        objectUrl = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: 'application/pdf' }));
        setState({ url: objectUrl });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ error: '无法加载预览，请下载后查看' });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file.id, kind]);

  if (state.error) return <Alert type="error" showIcon message={state.error} />;
  if (state.text !== undefined) {
    return (
      <pre data-testid="preview-text" style={{ width: '100%', maxHeight: '65vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', background: '#fafafa', padding: 12, margin: 0 }}>
        {state.text}
      </pre>
    );
  }
  if (state.url) return <iframe title={file.name} src={state.url} data-testid="preview-pdf" style={{ width: '100%', height: '70vh', border: 'none' }} />;
  return <Spin />;
}
