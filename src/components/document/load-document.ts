/**
 * Opens a document preview with pdf.js, through the preview route's answers: a PDF (shown), a rendition
 * still being made (asked again with backoff — pending.ts — until it is there or `signal` aborts, i.e.
 * the preview closed), or a refusal (thrown as DocumentUnavailable with its text).
 */
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import { classifyPreviewAnswer, pendingDelayMs, sleep, type PreviewAnswer } from './pending';
import { PDFJS_ASSETS, sharedWorker } from './pdfjs-assets';

export class DocumentUnavailable extends Error {
  constructor(readonly answer: Exclude<PreviewAnswer, { kind: 'pending' }>) {
    super(answer.message);
  }
}

const FALLBACK = '无法加载预览';

/** One ask of the route without its bytes: null when it serves the document now. */
async function ask(url: string, signal: AbortSignal): Promise<PreviewAnswer | null> {
  const res = await fetch(url, { credentials: 'include', signal, referrerPolicy: 'no-referrer', headers: { Range: 'bytes=0-0' } });
  if (res.ok && res.status !== 202) {
    void res.body?.cancel();
    return null;
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not a coded answer
  }
  return classifyPreviewAnswer(res.status, body, FALLBACK);
}

async function parse(url: string, signal: AbortSignal): Promise<PDFDocumentProxy> {
  const task = getDocument({
    url,
    worker: sharedWorker(),
    // Fonts are drawn through paths, never compiled into functions (the page's CSP has no 'unsafe-eval').
    isEvalSupported: false,
    cMapUrl: PDFJS_ASSETS.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: PDFJS_ASSETS.standardFontDataUrl,
  });
  const stop = (): void => void task.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    return await task.promise;
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

export async function loadDocument(url: string, signal: AbortSignal, onPending: () => void): Promise<PDFDocumentProxy> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await parse(url, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // pdf.js says only that the answer was not a PDF: the route's coded answer says why.
      let answer = await ask(url, signal);
      if (answer === null) throw new DocumentUnavailable({ kind: 'failed', message: '文件无法解析，可能已损坏' });
      while (answer?.kind === 'pending') {
        onPending();
        await sleep(pendingDelayMs(attempt++), signal);
        answer = await ask(url, signal);
      }
      if (answer) throw new DocumentUnavailable(answer);
      // Made meanwhile: parse it now.
    }
  }
}
