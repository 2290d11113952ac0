import { GlobalWorkerOptions, version } from 'pdfjs-dist';
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
