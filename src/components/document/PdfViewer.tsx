import 'pdfjs-dist/web/pdf_viewer.css';
import './pdf-viewer.css';
// pdf.js's library first: its viewer component reads it from globalThis.pdfjsLib when it loads.
import { AnnotationMode, type PDFDocumentProxy } from 'pdfjs-dist';
import { EventBus, LinkTarget, PDFFindController, PDFLinkService, PDFViewer as PdfJsViewer } from 'pdfjs-dist/web/pdf_viewer.mjs';
import { Alert, Button, Spin } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { paintWatermark } from './canvas-watermark';
import { DocumentToolbar } from './DocumentToolbar';
import { FindBar, type FindStatus } from './FindBar';
import { DocumentUnavailable, loadDocument } from './load-document';
import type { DocumentTarget } from './target';
import { clampScale, pinchScale, type Zoom } from './zoom';

export interface PdfViewerProps {
  /** The preview route answering the PDF (or its rendition of an Office file). */
  url: string;
  name: string;
  /** The viewer's line painted into every page (preview-only grants), or null. */
  watermark: string | null;
  /** Open at this page with this term looked for. */
  at?: DocumentTarget;
  /** Where the original is downloaded, shown beside 该文件类型暂不支持预览 when the grant allows. */
  downloadHref?: string;
  /** Height of the viewer (CSS). */
  height?: string;
}

type Phase = { kind: 'loading' } | { kind: 'pending' } | { kind: 'ready'; pages: number } | { kind: 'unavailable'; unsupported: boolean; message: string };

/** A performance mark when the first page is on screen (tests/bench/suites/document-preview.ts reads it). */
export const FIRST_PAGE_MARK = 'document-first-page';

/**
 * A PDF shown by pdf.js: pages rendered near the viewport only (its viewer keeps a few around and
 * draws the rest as sized blanks), zoom (fit width, fit page, steps, Ctrl+wheel, pinch), find with
 * highlights, a page indicator that also jumps. Document parsing runs in pdf.js's worker; nothing in
 * the PDF runs as script (no scripting, no eval). Through a preview-only grant the viewer's line is
 * painted into each page's pixels, text cannot be copied, and the page has no download.
 */
export default function PdfViewer({ url, name, watermark, at, downloadHref, height = 'min(75vh, 900px)' }: PdfViewerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<PdfJsViewer | null>(null);
  const busRef = useRef<EventBus | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [page, setPage] = useState(1);
  const [scale, setScale] = useState(1);
  const [zoom, setZoom] = useState<Zoom>('page-width');
  const [find, setFind] = useState<{ open: boolean; query: string; status: FindStatus }>({ open: Boolean(at?.term), query: at?.term ?? '', status: { state: 'idle', current: 0, total: 0 } });
  const watermarkRef = useRef(watermark);
  watermarkRef.current = watermark;
  const target = useRef(at);

  useEffect(() => {
    const container = containerRef.current;
    const pagesEl = pagesRef.current;
    if (!container || !pagesEl) return;
    const controller = new AbortController();
    const { signal } = controller;
    const eventBus = new EventBus();
    const linkService = new PDFLinkService({ eventBus, externalLinkTarget: LinkTarget.BLANK, externalLinkRel: 'noopener noreferrer nofollow' });
    const findController = new PDFFindController({ eventBus, linkService });
    const viewer = new PdfJsViewer({
      container,
      viewer: pagesEl,
      eventBus,
      linkService,
      findController,
      // Links only: no form fields to fill in a preview.
      annotationMode: AnnotationMode.ENABLE,
      // Phones: at most ~16 MP per page canvas; past it pdf.js zooms the canvas by CSS.
      maxCanvasPixels: 2 ** 24,
      // Typed without it, read by the viewer: stops its resize observer and scroll watch on close.
      ...({ abortSignal: signal } as object),
    });
    linkService.setViewer(viewer);
    viewerRef.current = viewer;
    busRef.current = eventBus;
    let firstShown = false;

    eventBus.on('pagesinit', () => {
      viewer.currentScaleValue = 'page-width';
      const want = target.current;
      if (want?.page) viewer.currentPageNumber = Math.min(Math.max(1, Math.floor(want.page)), viewer.pagesCount);
      if (want?.term) eventBus.dispatch('find', { source: null, type: '', query: want.term, caseSensitive: false, entireWord: false, highlightAll: true, findPrevious: false, matchDiacritics: false });
    });
    eventBus.on('pagechanging', (e: { pageNumber: number }) => setPage(e.pageNumber));
    eventBus.on('scalechanging', (e: { scale: number; presetValue?: string }) => {
      setScale(e.scale);
      setZoom(e.presetValue === 'page-width' || e.presetValue === 'page-fit' ? e.presetValue : e.scale);
    });
    eventBus.on('pagerendered', (e: { source: { canvas?: HTMLCanvasElement }; cssTransform: boolean; error: unknown }) => {
      // A CSS-only zoom keeps the canvas already painted; a new rendering gets the line again.
      const canvas = e.source.canvas;
      if (!e.cssTransform && canvas && watermarkRef.current) paintWatermark(canvas, watermarkRef.current);
      if (!firstShown && !e.error) {
        firstShown = true;
        requestAnimationFrame(() => {
          performance.mark(FIRST_PAGE_MARK);
          container.dataset.firstPage = 'shown';
        });
      }
    });
    const onCount = (e: { matchesCount: { current: number; total: number } }): void => setFind((f) => ({ ...f, status: { ...f.status, current: e.matchesCount.current, total: e.matchesCount.total } }));
    eventBus.on('updatefindmatchescount', onCount);
    eventBus.on('updatefindcontrolstate', (e: { state: number; matchesCount: { current: number; total: number } }) => {
      // pdf.js FindState: 0 found, 1 not found, 2 wrapped, 3 pending.
      const state = e.state === 1 ? 'none' : e.state === 3 ? 'pending' : e.state === 2 ? 'wrapped' : 'found';
      setFind((f) => ({ ...f, status: { state, current: e.matchesCount.current, total: e.matchesCount.total } }));
    });

    let doc: PDFDocumentProxy | null = null;
    loadDocument(url, signal, () => setPhase({ kind: 'pending' })).then(
      (loaded) => {
        if (signal.aborted) return void loaded.destroy();
        doc = loaded;
        viewer.setDocument(loaded);
        linkService.setDocument(loaded, null);
        setPhase({ kind: 'ready', pages: loaded.numPages });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        if (error instanceof DocumentUnavailable) setPhase({ kind: 'unavailable', unsupported: error.answer.kind === 'unsupported', message: error.message });
        else setPhase({ kind: 'unavailable', unsupported: false, message: '无法加载预览' });
      },
    );
    return () => {
      controller.abort();
      viewer.setDocument(null as unknown as PDFDocumentProxy);
      void doc?.destroy();
      viewerRef.current = null;
      busRef.current = null;
    };
  }, [url]);

  // Ctrl + wheel (and a trackpad's pinch, which arrives as one) zooms about the pointer.
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent): void => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      viewerRef.current?.updateScale({ drawingDelay: 300, scaleFactor: Math.exp(-e.deltaY / 200), origin: [e.clientX, e.clientY] });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  // Two fingers pinch the pages (the browser's own page zoom is off over them: touch-action below).
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    let start: { distance: number; scale: number } | null = null;
    const distance = (t: TouchList): number => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
    const onStart = (e: TouchEvent): void => {
      if (e.touches.length === 2 && viewerRef.current) start = { distance: distance(e.touches), scale: viewerRef.current.currentScale };
    };
    const onMove = (e: TouchEvent): void => {
      const viewer = viewerRef.current;
      if (!start || e.touches.length !== 2 || !viewer) return;
      e.preventDefault();
      const wanted = pinchScale(start.scale, start.distance, distance(e.touches));
      const origin: [number, number] = [(e.touches[0]!.clientX + e.touches[1]!.clientX) / 2, (e.touches[0]!.clientY + e.touches[1]!.clientY) / 2];
      viewer.updateScale({ drawingDelay: 400, scaleFactor: wanted / viewer.currentScale, origin });
    };
    const onEnd = (e: TouchEvent): void => {
      if (e.touches.length < 2) start = null;
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, []);

  const applyZoom = (next: Zoom): void => {
    const viewer = viewerRef.current;
    if (!viewer) return;
    if (typeof next === 'number') viewer.currentScale = clampScale(next);
    else viewer.currentScaleValue = next;
  };
  const goTo = (n: number): void => {
    const viewer = viewerRef.current;
    if (viewer && n >= 1 && n <= viewer.pagesCount) viewer.currentPageNumber = n;
  };
  const search = (query: string, again: boolean, previous = false): void => {
    setFind((f) => ({ ...f, query }));
    busRef.current?.dispatch('find', { source: null, type: again ? 'again' : '', query, caseSensitive: false, entireWord: false, highlightAll: true, findPrevious: previous, matchDiacritics: false });
  };
  const closeFind = (): void => {
    setFind((f) => ({ ...f, open: false }));
    busRef.current?.dispatch('findbarclose', { source: null });
    containerRef.current?.focus();
  };

  const ready = phase.kind === 'ready';
  let cover: ReactNode = null;
  if (phase.kind === 'loading') cover = <Spin />;
  else if (phase.kind === 'pending') {
    cover = (
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }} data-testid="document-pending">
        <Spin />
        <span>正在生成预览…</span>
      </div>
    );
  } else if (phase.kind === 'unavailable') {
    cover = (
      <Alert
        type={phase.unsupported ? 'info' : 'error'}
        showIcon
        title={phase.unsupported ? '该文件类型暂不支持预览' : phase.message}
        data-testid={phase.unsupported ? 'preview-unsupported' : 'preview-failed'}
        action={
          downloadHref ? (
            <Button size="small" href={downloadHref} download={name} data-testid="document-download">
              下载
            </Button>
          ) : undefined
        }
      />
    );
  }

  return (
    <div className="document-viewer" style={{ display: 'flex', flexDirection: 'column', width: '100%', gap: 8 }} data-testid="document-viewer" data-phase={phase.kind}>
      {ready && (
        <DocumentToolbar
          page={page}
          pages={phase.pages}
          scale={scale}
          zoom={zoom}
          onPage={goTo}
          onZoom={applyZoom}
          onFind={() => setFind((f) => ({ ...f, open: true }))}
        />
      )}
      {ready && find.open && <FindBar query={find.query} status={find.status} onSearch={search} onClose={closeFind} />}
      <div style={{ position: 'relative', height, background: '#525659', borderRadius: 6, overflow: 'hidden' }}>
        <div
          ref={containerRef}
          className={watermark ? 'document-pages document-pages-view-only' : 'document-pages'}
          tabIndex={0}
          role="document"
          aria-label={name}
          data-testid="document-pages"
          onCopy={watermark ? (e) => e.preventDefault() : undefined}
          onContextMenu={watermark ? (e) => e.preventDefault() : undefined}
          onKeyDown={(e) => {
            const viewer = viewerRef.current;
            if (!viewer) return;
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') setFind((f) => ({ ...f, open: true }));
            else if (e.ctrlKey || e.metaKey || e.altKey) return;
            else if (e.key === '+' || e.key === '=') viewer.increaseScale();
            else if (e.key === '-') viewer.decreaseScale();
            else if (e.key === '0') viewer.currentScaleValue = 'page-width';
            else if (e.key === 'Home') viewer.currentPageNumber = 1;
            else if (e.key === 'End') viewer.currentPageNumber = viewer.pagesCount;
            else if (e.key === 'n' || e.key === 'j') viewer.nextPage();
            else if (e.key === 'p' || e.key === 'k') viewer.previousPage();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
          style={{ position: 'absolute', inset: 0, overflow: 'auto', visibility: ready ? 'visible' : 'hidden' }}
        >
          <div ref={pagesRef} className="pdfViewer" />
        </div>
        {cover && <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16, background: '#fff' }}>{cover}</div>}
      </div>
    </div>
  );
}
