/**
 * Many users uploading at once through the chunk protocol, each with its own real transfer engine
 * (tests/replay/engine-harness: the Node engine the integration tests use, with its retries) and its
 * own session; one hash pool shared by all engines (as many threads as cores, not one pool each).
 * Afterwards every file is downloaded through the real download route and its SHA-256 compared.
 */
import { createNodeHashPool } from '../../../workers/node/hash-pool';
import { createNodeEngine, waitUntilSettled } from '../../replay/engine-harness';
import { openFileSource } from '../../replay/node-runtime';
import { downloadSha256 } from '../../support/drive-server';
import type { LoadUser } from './load-users';
import { mapLimit } from './load-users';

export interface UploadJob {
  user: LoadUser;
  file: string;
  name: string;
  sha256: string;
  size: number;
}

export interface UploadOutcome {
  ms: number;
  bytes: number;
  /** HTTP requests the engines made (chunk/exist, chunks, merges, retries). */
  requests: number;
  /** File ids by job, null when the upload did not end 'done'. */
  fileIds: Array<string | null>;
  /** Jobs that did not end 'done', with why. */
  failed: string[];
}

/**
 * Starts every job at once and waits until all settle. `onProgress(fraction)` is called about every
 * 100 ms with the share of all bytes the engines report done (the kill phase cuts a server at a point).
 */
export async function uploadAll(url: string, jobs: UploadJob[], options: { timeoutMs: number; onProgress?: (fraction: number) => Promise<void> | void }): Promise<UploadOutcome> {
  const pool = createNodeHashPool();
  const engines = jobs.map((job) => createNodeEngine(url, job.user.jar, { hashChunk: pool.hashChunk, hashConcurrency: pool.size }));
  const requestsBefore = jobs.reduce((sum, j) => sum + j.user.jar.counters.requests, 0);
  const totalBytes = jobs.reduce((sum, j) => sum + j.size, 0);
  const done = new Array<number>(jobs.length).fill(0);
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      await new Promise((r) => setTimeout(r, 100));
      await options.onProgress?.(done.reduce((a, b) => a + b, 0) / totalBytes);
    }
  })();
  const started = performance.now();
  try {
    const results = await Promise.all(
      jobs.map(async (job, i) => {
        const { engine } = engines[i]!;
        const [id] = await engine.enqueueUploads([await openFileSource(job.file, job.name)], { parentId: null, category: 1 });
        const settled = await waitUntilSettled(engine, {
          ids: [id!],
          timeoutMs: options.timeoutMs,
          pollMs: 50,
          onSnapshot: (s) => {
            done[i] = s.items.find((it) => it.id === id)?.bytesDone ?? 0;
          },
        });
        const item = settled.items.find((it) => it.id === id)!;
        return item.state === 'done' && item.fileId ? { fileId: item.fileId, why: null } : { fileId: null, why: `${job.user.username}/${job.name}: ${item.state} ${item.lastError ?? ''}` };
      }),
    );
    const ms = performance.now() - started;
    return {
      ms,
      bytes: totalBytes,
      requests: jobs.reduce((sum, j) => sum + j.user.jar.counters.requests, 0) - requestsBefore,
      fileIds: results.map((r) => r.fileId),
      failed: results.flatMap((r) => (r.why ? [r.why] : [])),
    };
  } finally {
    watching = false;
    await watcher;
    await Promise.all(engines.map((e) => e.close()));
    pool.terminate();
  }
}

/** Downloads every uploaded file and compares: the jobs whose bytes differ (or could not be read), with why. */
export async function verifyDownloads(url: string, jobs: UploadJob[], fileIds: Array<string | null>): Promise<string[]> {
  const problems = await mapLimit(jobs, 6, async (job, i) => {
    const fileId = fileIds[i];
    if (!fileId) return null; // counted as failed already
    try {
      const got = await downloadSha256(url, job.user.jar, fileId);
      return got.sha256 === job.sha256 && got.size === job.size ? null : `${job.user.username}/${job.name}: downloaded ${got.size} bytes, sha256 ${got.sha256.slice(0, 12)}… ≠ ${job.sha256.slice(0, 12)}…`;
    } catch (error) {
      return `${job.user.username}/${job.name}: ${(error as Error).message}`;
    }
  });
  return problems.filter((p): p is string => p !== null);
}
