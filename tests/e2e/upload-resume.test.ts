/**
 * Issue "Tests": in Chromium, start a large upload, reload the page mid-way: it resumes by itself and
 * finishes byte-exact, and the bytes sent again are at most one chunk (the server keeps the bytes of
 * a chunk body the reload cut, and the engine sends only the rest). Then the same (large) file
 * downloads with one click as the browser's own download (no engine, no transfer list).
 *
 * The new file first goes up as one whole-file request (protocol.ts, "Range uploads"), slowed by
 * Chromium's upload throttling so the reload lands mid-upload; after the reload the rest goes chunk by
 * chunk, each request slowed with context.route (it waits before it goes out). Re-sent bytes are measured on the server (GET /api/test/stats: chunk body bytes
 * it read, before and after); the chunk requests the browser issued are counted too, for the log.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, downloadUrl } from '../../common/api/paths';
import type { UploadConfig } from '../../common/transfer/protocol';
import { baseUrl, chunkIndexesOf, chunkIndexOf, closeBrowserSession, loginAsAdmin, openBrowserSession, revealFileRow, throttleUploads, transferItems } from './browser';

/** 80 MiB + a bit: 6 chunks at the product's 16 MiB (21 at 4 MiB), the last one short. */
const FILE_SIZE = 80 * 1024 * 1024 + 4321;
/** Each chunk request waits this long before it goes out, so the upload takes a few seconds. */
const CHUNK_DELAY_MS = 250;
/** The whole-file request's rate before the reload (~16 MB/s: 80 MiB in ~5 s). */
const UPLOAD_BYTES_PER_SECOND = 16 * 1024 * 1024;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('a large upload survives a page reload', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let workDir: string;
  let bytes: Buffer;
  let name: string;
  let fileId: string;
  let chunkSize: number;

  beforeAll(async () => {
    ({ browser, context, page, workDir } = await openBrowserSession('resume', { acceptDownloads: true }));
    bytes = randomBytes(FILE_SIZE);
    name = `resume-${Date.now()}.bin`;
    writeFileSync(path.join(workDir, name), bytes);
  });

  afterAll(async () => {
    await closeBrowserSession(browser, workDir);
  });

  it('resumes by itself after a reload at about half, re-sending at most one chunk', async () => {
    await loginAsAdmin(page);
    const chunkBytesReceived = async (): Promise<number> => {
      const res = await context.request.get(baseUrl() + API.testStats);
      expect(res.status()).toBe(200);
      return ((await res.json()) as { data: { chunkBytesReceived: number } }).data.chunkBytesReceived;
    };
    const receivedBefore = await chunkBytesReceived();
    const config = (await (await context.request.get(baseUrl() + API.uploadConfig)).json()) as { data: UploadConfig };
    chunkSize = config.data.chunkSize;
    const chunkCount = Math.ceil(FILE_SIZE / chunkSize);
    const chunkLength = (index: number): number => Math.min(chunkSize, FILE_SIZE - index * chunkSize);

    const issued: number[] = []; // chunk index of every chunk request the browser sent, in order
    const resumedAt: string[] = []; // 'index@offset' of every chunk request that continued a partial
    const stored = new Set<number>(); // chunks the server answered 2xx for
    let finishedOrFailed = 0;
    context.on('request', (r) => {
      const index = chunkIndexOf(r.url());
      if (index !== null && r.method() === 'POST') {
        issued.push(...chunkIndexesOf(r.url()));
        const offset = new URL(r.url()).searchParams.get('offset');
        if (offset) resumedAt.push(`${index}@${offset}`);
      }
    });
    context.on('requestfinished', (r) => {
      const index = chunkIndexOf(r.url());
      if (index === null) return;
      finishedOrFailed++;
      void r.response().then((res) => {
        if (res?.ok()) for (const i of chunkIndexesOf(r.url())) stored.add(i);
      });
    });
    context.on('requestfailed', (r) => {
      if (chunkIndexOf(r.url()) !== null) finishedOrFailed++;
    });
    await context.route(`**${API.chunkUpload}**`, async (route) => {
      await new Promise((r) => setTimeout(r, CHUNK_DELAY_MS));
      await route.continue().catch(() => undefined); // the page may be gone by then (reload)
    });

    // A new file goes up as one whole-file request (each chunk its own request only after the reload):
    // its bytes are slowed, so the reload lands mid-upload.
    await throttleUploads(page, UPLOAD_BYTES_PER_SECOND);
    await page.getByTestId('upload-input').setInputFiles(path.join(workDir, name));
    await transferItems(page, name, 'uploading').waitFor({ timeout: 60_000 });

    // Reload once about half of the bytes reached the server.
    await expect.poll(async () => (await chunkBytesReceived()) - receivedBefore, { timeout: 90_000, interval: 50 }).toBeGreaterThanOrEqual(FILE_SIZE / 2);
    const inFlightAtReload = issued.length - finishedOrFailed;
    const storedAtReload = stored.size;
    await page.reload();
    await throttleUploads(page, null);

    // Nobody touches anything: the engine in the reloaded page picks the item up and finishes it.
    await transferItems(page, name, 'done').waitFor({ timeout: 110_000 });
    await context.unroute(`**${API.chunkUpload}**`);

    const receivedBytes = (await chunkBytesReceived()) - receivedBefore;
    const resentBytes = receivedBytes - FILE_SIZE;
    // Browser side, for the log only: whole chunks per issued request (a resumed one sends less).
    const issuedBytes = issued.reduce((sum, index) => sum + chunkLength(index), 0);
    console.info(
      `[upload-resume] chunks=${chunkCount} chunkSize=${chunkSize} storedAtReload=${storedAtReload} inFlightAtReload=${inFlightAtReload} ` +
        `requests=${issued.length} resumedWithOffset=[${resumedAt.join(',')}] serverReceived=${receivedBytes} resentBytes=${resentBytes} (${(resentBytes / chunkSize).toFixed(2)} chunks) ` +
        `browserIssuedWholeChunks=${issuedBytes - FILE_SIZE} (${((issuedBytes - FILE_SIZE) / chunkSize).toFixed(2)} chunks)`,
    );
    expect(new Set(issued).size).toBe(chunkCount);
    expect(resentBytes).toBeGreaterThanOrEqual(0);
    // The bound: a reload re-sends at most one chunk's worth of bytes.
    expect(resentBytes).toBeLessThanOrEqual(chunkSize);

    const row = await revealFileRow(page, name);
    fileId = (await row.getAttribute('data-row-key')) as string;
    expect(fileId).toBeTruthy();
    const got = await (await context.request.get(baseUrl() + downloadUrl(fileId))).body();
    expect(got.length).toBe(FILE_SIZE);
    expect(sha256(got)).toBe(sha256(bytes));
  });

  it('downloads the large file with one click as the browser\'s own download, byte-exact', async () => {
    // 80 MiB: above the size that used to go through the engine's piece store; every size takes the
    // same path now. One click on 下载 and the browser writes the download route's answer to disk.
    expect(fileId).toBeTruthy();
    const engineItemsBefore = await transferItems(page, name).count();
    const downloadEvent = page.waitForEvent('download', { timeout: 110_000 });
    await page.getByTestId(`download-${fileId}`).click();
    const download = await downloadEvent;
    expect(download.url()).toBe(baseUrl() + downloadUrl(fileId));
    expect(download.suggestedFilename()).toBe(name);
    await page.getByText('已开始下载').waitFor();
    const saved = path.join(workDir, 'downloaded.bin');
    await download.saveAs(saved);
    expect(await download.failure()).toBeNull();
    const got = readFileSync(saved);
    expect(got.length).toBe(FILE_SIZE);
    expect(sha256(got)).toBe(sha256(bytes));
    // Nothing was queued in the transfer engine, and the panel has no download list to look in.
    expect(await transferItems(page, name).count()).toBe(engineItemsBefore);
    expect(await page.getByTestId('transfer-tab-download').count()).toBe(0);
  });
});
