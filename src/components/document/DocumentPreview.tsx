import { Alert, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { LoadFailure } from '../LoadFailure';
import { WatermarkOverlay } from '../WatermarkOverlay';
import type { PdfViewerProps } from './PdfViewer';

// pdf.js (library, viewer, styles; its worker is a file of its own) loads with the first document
// preview opened, never with a page: the pages' JavaScript budgets do not carry it.
const PdfViewer = lazy(() => import('./PdfViewer'));

/**
 * A PDF — or an Office file's PDF rendition — in the preview (file pages, share links, an approver's
 * view). Through a preview-only grant the viewer's line is painted into every page's pixels by the
 * viewer and also laid over the pages (WatermarkOverlay): deleting the overlay's node leaves the
 * marks in the pages; taking those off means re-rendering the document.
 */
export function DocumentPreview(props: PdfViewerProps) {
  return (
    <WatermarkOverlay text={props.watermark}>
      <LoadFailure fallback={<Alert type="error" showIcon title="预览组件加载失败，请检查网络后重试" />} onFailed={(error) => console.warn('document viewer failed to load', error)}>
        <Suspense fallback={<Spin />}>
          <PdfViewer {...props} />
        </Suspense>
      </LoadFailure>
    </WatermarkOverlay>
  );
}
