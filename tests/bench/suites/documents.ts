/**
 * Document conversions (issue 41; docs/documents.md "Renditions"): .docx, .xlsx and .pptx files of three
 * sizes, written by tests/support/document-kit.ts, each converted as the server's pool does it
 * (server/services/documents/extract.ts: LibreOffice with a fresh profile and no network, pdftotext,
 * pdftoppm's first page), one at a time. Per document: wall time, peak resident memory of the tools'
 * process tree (sampled every 200 ms), the PDF's pages and size.
 *
 * - `documentDocxSmallMs` … `documentPptxLargeMs`: conversion time of each;
 * - `documentPeakRssMaxMb`: the largest peak over all of them.
 * BENCH_DOCUMENT_SIZES=small,medium limits the sizes (large takes minutes on a loaded machine).
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractDocument } from '../../../server/services/documents/extract';
import { findTools } from '../../../server/services/documents/tools';
import { docx, pptx, xlsx } from '../../support/document-kit';
import type { BenchModule, BenchRow } from '../lib/report';

const LINE = '第三季度经营分析 Quarterly operating review: revenue, costs and the outlook for the next period.';
const SIZES = { small: { docx: 20, xlsx: 50, pptx: 3 }, medium: { docx: 1500, xlsx: 5000, pptx: 50 }, large: { docx: 15000, xlsx: 50000, pptx: 300 } } as const;
type Size = keyof typeof SIZES;
const MAKERS = { docx, xlsx, pptx } as const;
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);

export const documentsBenchmark: BenchModule = {
  name: 'documents',
  columns: ['document', 'input KB', 'pages', 'PDF KB', 'ms', 'peak MB', 'text chars'],
  async run() {
    const tools = await findTools(process.env.SOFFICE_PATH);
    if (!tools.soffice || !tools.pdftotext) throw new Error(`documents benchmark: missing ${tools.missing.join(', ')}`);
    const sizes = (process.env.BENCH_DOCUMENT_SIZES ?? 'small,medium,large').split(',') as Size[];
    const rows: BenchRow[] = [];
    const metrics: Record<string, number | string> = { documentIsolation: tools.isolation };
    let peakMax = 0;
    const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-documents-'));
    try {
      for (const size of sizes) {
        for (const kind of ['docx', 'xlsx', 'pptx'] as const) {
          const count = SIZES[size][kind];
          const bytes = await MAKERS[kind](Array.from({ length: count }, (_, i) => `${i + 1}. ${LINE}`));
          const workDir = await fsp.mkdtemp(path.join(root, `${kind}-${size}-`));
          const input = path.join(workDir, `document.${kind}`);
          await fsp.writeFile(input, bytes);
          const started = performance.now();
          const out = await extractDocument({ kind: 'office', input, workDir, deadline: Date.now() + 600_000, limitMs: 600_000 }, tools, new AbortController().signal);
          const ms = Math.round(performance.now() - started);
          const pdfBytes = (await fsp.stat(out.pdfPath!)).size;
          peakMax = Math.max(peakMax, out.peakRssKb);
          rows.push({
            label: `${kind} ${size} (${count} ${kind === 'docx' ? 'paragraphs' : kind === 'xlsx' ? 'rows' : 'slides'})`,
            cells: {
              'input KB': (bytes.length / 1024).toFixed(0),
              pages: String(out.pageStarts.length),
              'PDF KB': (pdfBytes / 1024).toFixed(0),
              ms: String(ms),
              'peak MB': (out.peakRssKb / 1024).toFixed(0),
              'text chars': String(out.text.length),
            },
          });
          metrics[`document${capital(kind)}${capital(size)}Ms`] = ms;
          await fsp.rm(workDir, { recursive: true, force: true });
        }
      }
    } finally {
      await fsp.rm(root, { recursive: true, force: true });
    }
    metrics.documentPeakRssMaxMb = Math.round(peakMax / 1024);
    return { rows, metrics };
  },
};
