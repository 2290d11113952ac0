import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS, type DocumentPipelineStatus } from '../../common/api/endpoints/documents';
import { ERRORS } from '../../common/api/errors';
import { formatSize } from '../../common/format/size';
import { API, linkPreviewUrl, previewUrl, thumbnailUrl } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { docx, pptx, xlsx } from '../support/document-kit';
import { pagePerLinePdf } from '../support/text-pdf';
import { oneRowOf } from './action-log-kit';
import { blobOf, ended, jobOf } from './documents-kit';
import { expectError } from './file-kit';
import { ADMIN, Client, loggedInClient, startServer, uploadFile, withDb, type TestServer } from './helpers';
import { fetchBytes, link, openLink } from './sharing-kit';

/**
 * Issue 41, renditions: Office documents made by the tests are converted to PDF by the real
 * LibreOffice in the background, once per content; the preview answers the rendition (also through a
 * preview-only link, never the original); text goes to the content sink with its pages; a document that
 * hangs the converter is killed at the time limit and fails alone; what was made goes with the last
 * reference; admins see counts and failures and retry them.
 */

interface Sink {
  texts: Map<string, { text: string; pageStarts?: readonly number[] | null }>;
  removed: string[];
}

function captureContent(server: TestServer): Sink {
  const sink: Sink = { texts: new Map(), removed: [] };
  server.app.documents.setContent({
    putText: async (blobId, input) => void sink.texts.set(blobId, input),
    removeBlob: async (blobId) => void sink.removed.push(blobId),
  });
  return sink;
}

/** pdftotext of a PDF, form feeds kept. */
async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(os.tmpdir(), `docrend-${process.pid}-${Date.now()}.pdf`);
  await fsp.writeFile(file, pdf);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
  } finally {
    await fsp.rm(file, { force: true });
  }
}

describe('renditions with LibreOffice', () => {
  let server: TestServer;
  let admin: Client;
  let sink: Sink;

  beforeAll(async () => {
    server = await startServer({ documents: { workers: 2, pollMs: 200 } });
    sink = captureContent(server);
    admin = await loggedInClient(server, ADMIN);
  });
  afterAll(async () => {
    await server.close();
  });

  it('converts a .docx, an .xlsx and a .pptx the tests wrote: the preview is a PDF holding their words, the grid gets a first-page thumbnail', async () => {
    const made: Array<[string, Buffer, string[]]> = [
      ['报告.docx', await docx(['Quarterly alpha report', '季度报告 第一段']), ['Quarterly alpha report', '季度报告']],
      ['预算.xlsx', await xlsx(['budget epsilon', '预算 单元格']), ['budget epsilon', '预算']],
      ['演示.pptx', await pptx(['Slide gamma one', 'Slide delta two']), ['Slide gamma one', 'Slide delta two']],
    ];
    const files: FileEntry[] = [];
    for (const [name, bytes] of made) files.push((await uploadFile(admin, bytes, name)).body.data);
    for (const [i, file] of files.entries()) {
      const [name, original, words] = made[i]!;
      const job = await ended(server, await blobOf(server, file.id));
      expect(job, name).toMatchObject({ status: 'done', kind: 'office', error: null, thumbnail: 1, attempts: 1 });
      const shown = await fetchBytes(admin, previewUrl(file.id));
      expect(shown.status, name).toBe(200);
      expect(shown.headers.get('content-type'), name).toBe('application/pdf');
      expect(shown.headers.get('content-disposition'), name).toMatch(/^inline/);
      expect(shown.body.subarray(0, 5).toString('latin1'), name).toBe('%PDF-');
      expect(shown.body.equals(original), name).toBe(false);
      const text = await pdfText(shown.body);
      for (const w of words) expect(text, name).toContain(w);
      // The same text went to the content index, its pages marked by their starts.
      const indexed = sink.texts.get(job.blob_id)!;
      for (const w of words) expect(indexed.text, name).toContain(w);
      expect(indexed.pageStarts![0]).toBe(0);
      const thumb = await fetchBytes(admin, thumbnailUrl(file.id));
      expect(thumb.status, name).toBe(200);
      expect(thumb.body.subarray(8, 12).toString('latin1'), name).toBe('WEBP');
    }
    // Two slides, two pages: the second page starts after the first's form feed.
    const slides = sink.texts.get((await jobOf(server, await blobOf(server, files[2]!.id)))!.blob_id)!;
    expect(slides.pageStarts).toHaveLength(2);
    expect(slides.text.slice(slides.pageStarts![1]!)).toContain('Slide delta two');
  });

  it('extracts a PDF\'s text by page and a text file\'s bytes (UTF-8, else GB18030); neither gets a rendition', async () => {
    const pdf = (await uploadFile(admin, pagePerLinePdf(['first page kappa', 'second page lambda']), 'paper.pdf')).body.data;
    const gbk = (await uploadFile(admin, Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0x20, 0x6d, 0x75]), 'gbk.txt')).body.data;
    const pdfJob = await ended(server, await blobOf(server, pdf.id));
    expect(pdfJob).toMatchObject({ status: 'done', kind: 'pdf', rendition_key: null, thumbnail: 1 });
    const pdfText = sink.texts.get(pdfJob.blob_id)!;
    expect(pdfText.pageStarts).toHaveLength(2);
    expect(pdfText.text.slice(0, pdfText.pageStarts![1])).toContain('first page kappa');
    expect(pdfText.text.slice(pdfText.pageStarts![1])).toContain('second page lambda');
    const txtJob = await ended(server, await blobOf(server, gbk.id));
    expect(txtJob).toMatchObject({ status: 'done', kind: 'text', rendition_key: null, thumbnail: 0 });
    expect(sink.texts.get(txtJob.blob_id)).toEqual({ text: '你好 mu', pageStarts: null });
  });

  it('converts a content once: two files of the same bytes are one job and one rendition; removing the last reference removes it', async () => {
    const bytes = await docx(['Twin document omega']);
    const storedBefore = (await server.app.byteStore.blobs.listStored()).size;
    const a = (await uploadFile(admin, bytes, 'twin-a.docx')).body.data;
    const b = (await uploadFile(admin, bytes, 'twin-b.docx')).body.data;
    const blobId = await blobOf(server, a.id);
    expect(await blobOf(server, b.id)).toBe(blobId);
    const job = await ended(server, blobId);
    expect(job.status).toBe('done');
    expect(await withDb(server, (db) => (db.prepare('select count(*) as n from document_jobs where blob_id = ?').get(blobId) as { n: number }).n)).toBe(1);
    const stored = await server.app.byteStore.blobs.listStored();
    // The blob and its one rendition.
    expect(stored.size).toBe(storedBefore + 2);
    expect(stored.get(job.rendition_key!)).toBe('single');
    const pa = await fetchBytes(admin, previewUrl(a.id));
    const pb = await fetchBytes(admin, previewUrl(b.id));
    expect(pa.body.equals(pb.body)).toBe(true);

    // One reference left: everything stays.
    expect((await admin.post(API.removeFiles, { ids: [a.id] })).status).toBe(200);
    expect((await admin.post(API.recyclePurge, { ids: [a.id] })).status).toBe(200);
    expect((await jobOf(server, blobId))?.status).toBe('done');
    expect((await fetchBytes(admin, previewUrl(b.id))).status).toBe(200);
    // The last one: the rendition, the thumbnail, the text and the job go with the blob.
    expect((await admin.post(API.removeFiles, { ids: [b.id] })).status).toBe(200);
    expect((await admin.post(API.recyclePurge, { ids: [b.id] })).status).toBe(200);
    expect(await jobOf(server, blobId)).toBeUndefined();
    const after = await server.app.byteStore.blobs.listStored();
    expect(after.has(job.rendition_key!)).toBe(false);
    expect(after.size).toBe(storedBefore);
    expect(await server.app.byteStore.thumbnails.get(blobId)).toBeNull();
    expect(sink.removed).toContain(blobId);
  });

  it('a preview-only link hands out the rendition, never the original', async () => {
    const bytes = await docx(['Only for viewing sigma']);
    const f = (await uploadFile(admin, bytes, '仅预览.docx')).body.data;
    await ended(server, await blobOf(server, f.id));
    const target = await link(admin, f.id, { previewOnly: true });
    const visitor = new Client(server.baseUrl);
    const opened = await openLink(visitor, target.token, target.code);
    expectError(await visitor.post(API.linkDownload, { visit: opened.visit, ids: [f.id] }), ERRORS.SHARE_PREVIEW_ONLY.code);
    const shown = await fetchBytes(visitor, linkPreviewUrl(f.id, opened.visit));
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('application/pdf');
    expect(shown.headers.get('cache-control')).toContain('no-store');
    expect(shown.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(shown.body.includes(bytes.subarray(0, 64))).toBe(false);
    expect(await pdfText(shown.body)).toContain('Only for viewing sigma');
    // With a Range too (pdf.js reads ranges).
    const ranged = await fetchBytes(visitor, linkPreviewUrl(f.id, opened.visit), { range: 'bytes=0-4' });
    expect(ranged.status).toBe(206);
    expect(ranged.body.toString('latin1')).toBe('%PDF-');
  });

  it('shares one queue between processes: a job whose lease passed (its process died) is taken again; one taken too often fails', async () => {
    const jobs = server.app.documents.jobs;
    const blobId = `lease-test-${Date.now()}`;
    const kinds = ['office-test'];
    await jobs.queue({ blobId, tenantId: 'nobody', kind: 'office-test', name: 'x.docx', size: 1, now: 1 });
    const first = await jobs.claim('process-a', kinds, 1000, 5000, 3);
    expect(first).toMatchObject({ blob_id: blobId, lease_owner: 'process-a', attempts: 1 });
    expect(await jobs.claim('process-b', kinds, 2000, 5000, 3)).toBeNull();
    const again = await jobs.claim('process-b', kinds, 7000, 5000, 3);
    expect(again).toMatchObject({ blob_id: blobId, lease_owner: 'process-b', attempts: 2 });
    // Process a comes back: its ending no longer counts.
    expect(await jobs.finish(blobId, 'process-a', { status: 'failed', error: 'x', peakRssKb: null, durationMs: 1 }, 7500)).toBe(false);
    expect(await jobs.claim('process-c', kinds, 20_000, 5000, 3)).toMatchObject({ attempts: 3 });
    expect(await jobs.claim('process-d', kinds, 40_000, 5000, 3)).toBeNull();
    expect((await jobs.find(blobId))!).toMatchObject({ status: 'failed', error: '转换进程多次中断' });
    await jobs.forget([blobId]);
  });
});

const HANG_LIMIT_MS = 40_000;

describe('a document that hangs the converter', () => {
  let server: TestServer;
  let admin: Client;
  let dir: string;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'docrend-fake-'));
    // LibreOffice, except for a document holding HANG: then it hangs, with a child of its own.
    const fake = path.join(dir, 'soffice');
    await fsp.writeFile(
      fake,
      `#!/bin/sh\nfor last; do :; done\nif grep -q HANG "$last"; then\n  sleep 300 &\n  echo $! > ${dir}/child.pid\n  sleep 300\nfi\nexec soffice "$@"\n`,
      { mode: 0o755 },
    );
    // The limit is the hang's, and also the real conversion's that follows it: a fresh LibreOffice profile on two
    // busy cores (the fresh clone's PostgreSQL stage beside e2e, load ~10) took over 20 s, and the good document ended
    // failed. 40 s leaves it twice what it takes there.
    server = await startServer({ documents: { workers: 1, pollMs: 200, timeLimitMs: HANG_LIMIT_MS, soffice: fake } });
    admin = await loggedInClient(server, ADMIN);
  });
  afterAll(async () => {
    await server.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('is killed with its process group at the time limit and marked failed; the next document converts; 重试 queues it again, on record', async () => {
    const hang = (await uploadFile(admin, Buffer.from('{\\rtf1\\ansi HANG forever\\par}'), '卡住.rtf')).body.data;
    const good = (await uploadFile(admin, await docx(['After the hang tau']), '正常.docx')).body.data;
    // While the hung one runs, both previews say the rendition is being made.
    expectError(await admin.get(previewUrl(hang.id)), ERRORS.PREVIEW_PENDING.code);
    expectError(await admin.get(previewUrl(good.id)), ERRORS.PREVIEW_PENDING.code);
    const started = Date.now();
    const failed = await ended(server, await blobOf(server, hang.id));
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(`转换超时（超过 ${HANG_LIMIT_MS / 1000} 秒），已终止`);
    expect(Date.now() - started).toBeLessThan(HANG_LIMIT_MS + 30_000);
    // The hung converter's own child went with it (the whole process group was killed).
    const child = Number(await fsp.readFile(path.join(dir, 'child.pid'), 'utf8'));
    const state = await fsp.readFile(`/proc/${child}/stat`, 'utf8').then((s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3)).catch(() => 'gone');
    expect(['gone', 'Z', 'X']).toContain(state);
    const next = await ended(server, await blobOf(server, good.id));
    expect(next).toMatchObject({ status: 'done', error: null });
    expect(await pdfText((await fetchBytes(admin, previewUrl(good.id))).body)).toContain('After the hang tau');
    // Failed: PREVIEW_UNSUPPORTED with the words the client shows.
    expect((await admin.get(previewUrl(hang.id))).body).toEqual({ errorCode: ERRORS.PREVIEW_UNSUPPORTED.code, errorMessage: '该文件类型暂不支持预览' });

    const seen = (await admin.get<{ data: DocumentPipelineStatus }>(DOCUMENTS.status.path)).body.data;
    expect(seen.counts).toMatchObject({ failed: 1, queued: 0, running: 0 });
    expect(seen.counts.done).toBeGreaterThanOrEqual(1);
    expect(seen.failures).toEqual([{ jobId: failed.blob_id, name: '卡住.rtf', error: failed.error, attempts: 1, failedAt: expect.any(Number) }]);
    expect(seen.converter).toMatchObject({ installed: true, missing: [], workers: 1, timeLimitMs: HANG_LIMIT_MS });

    expectError(await admin.post(DOCUMENTS.retry.path, { jobIds: ['no-such-job'] }), ERRORS.NOT_FOUND.code, 404);
    let retried: unknown;
    const row = await oneRowOf(server, async () => (retried = (await admin.post(DOCUMENTS.retry.path, { jobIds: [failed.blob_id] })).body));
    expect(retried).toEqual({ data: { retried: 1 } });
    expect(row).toMatchObject({ action: 'file.renditionRetry', outcome: 'ok' });
    expect(row.parsedTargets.map((t) => t.name)).toEqual(['卡住.rtf']);
    expect(row.parsedDetail).toMatchObject({ all: false, retried: 1 });
    expect((await jobOf(server, failed.blob_id))!.status).toMatch(/^(queued|running)$/);
  }, 3 * HANG_LIMIT_MS);
});

describe('a restart', () => {
  it('gives the job in flight back to the queue; the next start converts it', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'docrend-slow-'));
    // A converter that never finishes: the server is closed while it runs.
    const slow = path.join(dir, 'soffice');
    await fsp.writeFile(slow, '#!/bin/sh\nsleep 300\n', { mode: 0o755 });
    const first = await startServer({ documents: { workers: 1, pollMs: 200, soffice: slow } });
    const admin = await loggedInClient(first, ADMIN);
    const f = (await uploadFile(admin, await docx(['Survives a restart upsilon']), '重启.docx')).body.data;
    const blobId = await blobOf(first, f.id);
    for (let i = 0; i < 200 && (await jobOf(first, blobId))?.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await jobOf(first, blobId))?.status).toBe('running');
    await first.app.close();
    expect(await jobOf(first, blobId)).toMatchObject({ status: 'queued', lease_owner: null, attempts: 0 });
    const second = await startServer({ dataDir: first.dataDir, documents: { workers: 1, pollMs: 200 } });
    try {
      expect(await ended(second, blobId)).toMatchObject({ status: 'done', attempts: 1 });
      const again = await loggedInClient(second, ADMIN);
      expect(await pdfText((await fetchBytes(again, previewUrl(f.id))).body)).toContain('Survives a restart upsilon');
    } finally {
      await second.close();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the size limit', () => {
  it('a document past DOCUMENT_MAX_BYTES is not read: its job fails with the reason, the next one is done', async () => {
    const server = await startServer({ documents: { workers: 1, pollMs: 200, maxBytes: 1000 } });
    try {
      const admin = await loggedInClient(server, ADMIN);
      const big = (await uploadFile(admin, Buffer.alloc(1001, 'a'), 'big.txt')).body.data;
      const small = (await uploadFile(admin, Buffer.alloc(1000, 'b'), 'small.txt')).body.data;
      expect(await ended(server, await blobOf(server, big.id))).toMatchObject({ status: 'failed', error: `文件超过转换大小上限（${formatSize(1000)}）`, text_chars: null });
      expect(await ended(server, await blobOf(server, small.id))).toMatchObject({ status: 'done', text_chars: 1000 });
    } finally {
      await server.close();
    }
  });
});

describe('without LibreOffice', () => {
  let server: TestServer;
  let admin: Client;

  beforeAll(async () => {
    server = await startServer({ documents: { workers: 1, pollMs: 200, soffice: '/nonexistent/soffice' } });
    admin = await loggedInClient(server, ADMIN);
  });
  afterAll(async () => {
    await server.close();
  });

  it('previews of Office documents say 该文件类型暂不支持预览, their jobs wait, and the admin card says what is missing', async () => {
    const f = (await uploadFile(admin, await docx(['No converter here']), '无转换.docx')).body.data;
    expect((await admin.get(previewUrl(f.id))).body).toEqual({ errorCode: ERRORS.PREVIEW_UNSUPPORTED.code, errorMessage: '该文件类型暂不支持预览' });
    const status = (await admin.get<{ data: DocumentPipelineStatus }>(DOCUMENTS.status.path)).body.data;
    expect(status.converter).toMatchObject({ installed: false, missing: ['libreoffice-writer-nogui', 'libreoffice-calc-nogui', 'libreoffice-impress-nogui'] });
    expect(status.counts).toMatchObject({ queued: 1, running: 0, failed: 0 });
  });
});
