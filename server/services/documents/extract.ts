import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { THUMBNAIL_SIZE } from '../../../common/api/types';
import { extensionOf, type DocumentKind } from '../../../common/files/documents';
import { loadSharp } from '../sharp-on-demand';
import { containerMismatch, containerOf } from './container';
import { runTool, type ToolRun } from './run-tool';
import { toolEnv, type DocumentTools } from './tools';

/** A job that cannot be done; `reason` is the Chinese text admins see in the card. */
export class DocumentJobFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What a document yields: its PDF rendition (Office only), text with page starts, a first-page thumbnail. */
export interface Extracted {
  /** Path of the Office document's PDF rendition inside the work directory (null: not an Office document). */
  pdfPath: string | null;
  text: string;
  /** Character offsets in `text` where each page starts (pdftotext's form feeds), [0] for a text file. */
  pageStarts: number[];
  /** A WebP of the first page of at most THUMBNAIL_SIZE px (null: none could be made). */
  thumbnail: Buffer | null;
  /** Largest resident memory of a tool's processes, KiB. */
  peakRssKb: number;
}

/** Most text kept of one document (pdftotext's output past it kills the run). */
export const TEXT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Decodes a text file's bytes: UTF-8 (a BOM dropped), else GB18030 (which every byte sequence is),
 * as Chinese text files not in UTF-8 nearly always are.
 */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

/** Page starts of pdftotext output: each page ends with a form feed. */
export function pageStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\f'); i !== -1 && i < text.length - 1; i = text.indexOf('\f', i + 1)) starts.push(i + 1);
  return starts;
}

function failed(tool: string, run: ToolRun, limitMs: number): DocumentJobFailure {
  if (run.timedOut) return new DocumentJobFailure(`转换超时（超过 ${Math.round(limitMs / 1000)} 秒），已终止`);
  const how = run.signal ? `被信号 ${run.signal} 终止` : `退出码 ${run.code}`;
  return new DocumentJobFailure(`${tool} 处理失败（${how}）${run.stderr ? `：${run.stderr.trim().split('\n').pop()!.slice(0, 200)}` : ''}`);
}

/**
 * Does what a document of `kind` needs, in `workDir` (holding the document as `input`, named
 * `document.<its extension>`), every tool run killed at `deadline`: an Office document whose bytes are
 * not the container its extension promises fails here (container.ts: LibreOffice would render it as
 * plain text); LibreOffice converts the others to PDF with a profile of its own and without a network; pdftotext gives the text of a PDF (layout kept, a form feed per page); pdftoppm
 * its first page. Throws DocumentJobFailure.
 */
export async function extractDocument(
  job: { kind: DocumentKind; input: string; workDir: string; deadline: number; limitMs: number },
  tools: DocumentTools,
  signal: AbortSignal,
): Promise<Extracted> {
  const env = toolEnv(job.workDir);
  let peakRssKb = 0;
  const run = async (command: string, args: string[], maxStdout?: number): Promise<ToolRun> => {
    const [bin, ...prefix] = [...tools.isolate, command];
    const done = await runTool(bin!, [...prefix, ...args], { deadline: job.deadline, signal, cwd: job.workDir, env, maxStdout });
    peakRssKb = Math.max(peakRssKb, done.peakRssKb);
    return done;
  };
  if (job.kind === 'text') {
    const text = decodeText(await fsp.readFile(job.input));
    return { pdfPath: null, text, pageStarts: [0], thumbnail: null, peakRssKb: 0 };
  }
  let pdf = job.input;
  if (job.kind === 'office') {
    if (!tools.soffice) throw new DocumentJobFailure('LibreOffice 未安装');
    const mismatch = containerMismatch(extensionOf(path.basename(job.input)), await containerOf(job.input));
    if (mismatch) throw new DocumentJobFailure(mismatch);
    const outDir = path.join(job.workDir, 'out');
    const profile = path.join(job.workDir, 'profile');
    const converted = await run(tools.soffice, [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--nolockcheck',
      '--nodefault',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      job.input,
    ]);
    pdf = path.join(outDir, `${path.basename(job.input, path.extname(job.input))}.pdf`);
    const made = await fsp.stat(pdf).catch(() => null);
    if (converted.code !== 0 || converted.timedOut || !made || made.size === 0) {
      if (converted.timedOut || converted.code !== 0) throw failed('LibreOffice', converted, job.limitMs);
      throw new DocumentJobFailure('LibreOffice 未能生成 PDF（文件可能已损坏或格式不受支持）');
    }
  }
  if (!tools.pdftotext) throw new DocumentJobFailure('poppler-utils 未安装');
  const extracted = await run(tools.pdftotext, ['-layout', '-enc', 'UTF-8', pdf, '-'], TEXT_MAX_BYTES);
  if (extracted.code !== 0) throw failed('pdftotext', extracted, job.limitMs);
  const text = extracted.stdout.toString('utf8');
  return { pdfPath: job.kind === 'office' ? pdf : null, text, pageStarts: pageStartsOf(text), thumbnail: await firstPage(run, tools, pdf, job.workDir), peakRssKb };
}

/** The first page as a WebP thumbnail; null when it cannot be made (the grid shows the icon). */
async function firstPage(run: (command: string, args: string[]) => Promise<ToolRun>, tools: DocumentTools, pdf: string, workDir: string): Promise<Buffer | null> {
  if (!tools.pdftoppm) return null;
  const prefix = path.join(workDir, 'page1');
  const made = await run(tools.pdftoppm, ['-png', '-f', '1', '-l', '1', '-singlefile', '-scale-to', String(THUMBNAIL_SIZE * 2), pdf, prefix]);
  if (made.code !== 0) return null;
  try {
    // Loaded at first use (sharp-on-demand.ts: with libvips' loaders restricted); the PNG is pdftoppm's own.
    const sharp = await loadSharp();
    return await sharp(`${prefix}.png`, { limitInputPixels: 50_000_000 })
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
  } catch {
    return null;
  }
}
