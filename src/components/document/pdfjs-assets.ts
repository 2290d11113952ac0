import { GlobalWorkerOptions, PDFWorker, version } from 'pdfjs-dist';
// The worker file as it is, emitted by the build under a hashed name (served from our origin).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pdfjsAssetBase } from '../../../common/pdfjs-assets';

// pdf.js parses documents and builds each page's drawing in this worker, off the page's thread.
GlobalWorkerOptions.workerSrc = workerUrl;

const base = pdfjsAssetBase(version);

export const PDFJS_ASSETS = {
  cMapUrl: `${base}cmaps/`,
  standardFontDataUrl: `${base}standard_fonts/`,
};

let worker: PDFWorker | null = null;

/**
 * The one pdf.js worker every document of the page uses, started with the viewer's chunk and kept
 * (a document's loading task leaves a worker it was given running): the next preview does not pay
 * for starting a worker and compiling its 1.4 MB again. Documents are destroyed as they close.
 */
export function sharedWorker(): PDFWorker {
  if (!worker || worker.destroyed) worker = new PDFWorker();
  return worker;
}

// Started as the viewer's chunk loads, while React renders the viewer and its first request goes out.
sharedWorker();
