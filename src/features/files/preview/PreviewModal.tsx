import { DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { downloadUrl, previewUrl } from '../../../../common/api/paths';
import type { FileEntry } from '../../../../common/api/types';
import { CsvPreview } from './CsvPreview';
import { ImageViewer } from './ImageViewer';
import { mayDownload, previewModeOf } from './preview-mode';
import { ERRORS } from '../../../../common/api/errors';
import { assertPreviewOk, PreviewFailure } from '../../../lib/preview-failure';
import { WatermarkOverlay } from '../../../components/WatermarkOverlay';
import { useCurrentUser } from '../../../lib/current-user';
import { OnlineEditNote } from './OnlineEditNote';
import { DocumentPreview } from '../../../components/document/DocumentPreview';
import type { DocumentTarget } from '../../../components/document/target';
import { viewerWatermark } from '../../../lib/watermark-text';

/**
 * Previews a picture (full size: fitted, zoomed, dragged, turned), a PDF or an Office document's PDF
 * rendition (pdf.js: pages, zoom, find; opened at `at`'s page and term), a text file, a CSV (as a table), an audio or a video, and steps to the
 * previous or next previewable file of the folder (buttons, ← / →). User content never runs script on
 * the app's origin: pictures and media are <img>/<audio>/<video> elements; text is read as text; a
 * PDF is drawn by pdf.js, which runs none of its scripts.
 */
export function PreviewModal({
  file,
  siblings = [],
  at,
  onNavigate,
  onClose,
}: {
  file: FileEntry | null;
  siblings?: readonly FileEntry[];
  /** A document opens at this page with this term found (统一搜索's content hits). */
  at?: DocumentTarget;
  onNavigate?: (file: FileEntry) => void;
  onClose: () => void;
}) {
  const mode = file ? previewModeOf(file) : null;
  const user = useCurrentUser();
  // Through a preview-only share (byte-access.ts): no download here, and the viewer's name, account
  // and time over the content (painted into each page of a document).
  const previewOnly = file ? !mayDownload(file) : false;
  const watermark = previewOnly ? viewerWatermark(user, Date.now()) : null;
  const index = file ? siblings.findIndex((s) => s.id === file.id) : -1;
  const prev = index > 0 ? siblings[index - 1] : undefined;
  const next = index >= 0 && index < siblings.length - 1 ? siblings[index + 1] : undefined;

  useEffect(() => {
    if (!file || !onNavigate) return;
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, audio, video')) return;
      if (e.key === 'ArrowLeft' && prev) onNavigate(prev);
      else if (e.key === 'ArrowRight' && next) onNavigate(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [file, prev, next, onNavigate]);

  const wide = mode === 'image' || mode === 'pdf' || mode === 'video' || mode === 'csv';
  return (
    <Modal
      open={file !== null}
      title={
        <span style={{ display: 'flex', gap: 8, alignItems: 'baseline', minWidth: 0, paddingInlineEnd: 24 }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="preview-title">
            {file?.name}
          </span>
          {index >= 0 && siblings.length > 1 && (
            <span style={{ color: 'rgba(0,0,0,0.6)', fontWeight: 400, fontSize: 13, flex: 'none' }} data-testid="preview-position">
              {index + 1} / {siblings.length}
            </span>
          )}
        </span>
      }
      onCancel={onClose}
      width={wide ? 'min(1200px, 96vw)' : 720}
      centered
      destroyOnHidden
      footer={
        file && (
          <div style={{ display: 'flex', gap: 8, justifyContent: 'space-between', flexWrap: 'wrap' }}>
            <span style={{ display: 'inline-flex', gap: 8 }}>
              {onNavigate && siblings.length > 1 && (
                <>
                  <Button icon={<LeftOutlined />} disabled={!prev} onClick={() => prev && onNavigate(prev)} title={prev ? `上一个：${prev.name}（←）` : undefined} data-testid="preview-prev">
                    上一个
                  </Button>
                  <Button disabled={!next} onClick={() => next && onNavigate(next)} title={next ? `下一个：${next.name}（→）` : undefined} data-testid="preview-next">
                    下一个
                    <RightOutlined />
                  </Button>
                </>
              )}
            </span>
            <OnlineEditNote file={file} />
            {previewOnly ? (
              <span style={{ color: '#999' }} data-testid="preview-only-note">
                该分享仅允许预览
              </span>
            ) : (
              <Button icon={<DownloadOutlined />} href={downloadUrl(file.id)} download={file.name} data-testid="preview-download">
                下载
              </Button>
            )}
          </div>
        )
      }
    >
      <div data-testid="preview" data-mode={mode ?? 'none'} style={{ display: 'flex', justifyContent: 'center', minHeight: 120 }}>
        {file && mode === 'image' && <ImageViewer key={file.id} file={file} fallback={failureText(previewOnly)} />}
        {file && mode === 'pdf' && <DocumentPreview key={file.id} url={previewUrl(file.id)} name={file.name} watermark={watermark} at={at} downloadHref={previewOnly ? undefined : downloadUrl(file.id)} />}
        {file && mode === 'text' && (
          <WatermarkOverlay text={watermark}>
            <TextPreview key={file.id} file={file} fallback={failureText(previewOnly)} />
          </WatermarkOverlay>
        )}
        {file && mode === 'csv' && <CsvPreview key={file.id} file={file} fallback={failureText(previewOnly)} />}
        {file && mode === 'audio' && <audio key={file.id} controls src={previewUrl(file.id)} data-testid="preview-audio" style={{ width: '100%' }} />}
        {file && mode === 'video' && <video key={file.id} controls src={previewUrl(file.id)} data-testid="preview-video" style={{ maxWidth: '100%', maxHeight: '70vh' }} />}
        {file && mode === null && (
          <Alert type="info" showIcon title={previewOnly ? ERRORS.PREVIEW_UNSUPPORTED.message : `${ERRORS.PREVIEW_UNSUPPORTED.message}，请下载后查看`} data-testid="preview-unsupported" />
        )}
      </div>
    </Modal>
  );
}

/** What a failed preview shows when the server gave no coded reason. */
function failureText(previewOnly: boolean): string {
  return previewOnly ? '无法加载预览' : '无法加载预览，请下载后查看';
}

function TextPreview({ file, fallback }: { file: FileEntry; fallback: string }) {
  const [state, setState] = useState<{ text?: string; error?: string }>({});
  useEffect(() => {
    const controller = new AbortController();
    fetch(previewUrl(file.id), { credentials: 'include', signal: controller.signal })
      .then(async (res) => setState({ text: await (await assertPreviewOk(res, fallback)).text() }))
      .catch((e: unknown) => {
        // The server's coded refusal says why (该文件类型不支持预览…), else the generic failure.
        if (!controller.signal.aborted) setState({ error: e instanceof PreviewFailure ? e.message : fallback });
      });
    return () => controller.abort();
  }, [file.id, fallback]);

  if (state.error) return <Alert type="error" showIcon title={state.error} data-testid="preview-failed" />;
  if (state.text === undefined) return <Spin />;
  return (
    <pre data-testid="preview-text" tabIndex={0} style={{ width: '100%', maxHeight: '65vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', background: '#fafafa', padding: 12, margin: 0 }}>
      {state.text}
    </pre>
  );
}
