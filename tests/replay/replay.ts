/**
 * Replays an exported queue (QueueExport, common/transfer/engine-api.ts) against a server with the
 * real engine under Node: each upload item is matched to a file under `filesDir` (by relativePath,
 * then by name; the size must match), enqueued with its original target, and run to the end.
 * Download items (in exports from before downloads became the browser's own) are skipped.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { QueueExport, TransferItemView } from '../../common/transfer/engine-api';
import { createNodeEngine, waitUntilSettled, type NodeEngineDeps } from './engine-harness';
import { openFileSource, type CookieFetch } from './node-runtime';

type ExportItem = QueueExport['items'][number];

export interface ReplayItemResult {
  name: string;
  direction: 'upload' | 'download';
  /** The engine's final state, or why the item could not be replayed. */
  outcome: string;
  size: number;
  /** Chunk bytes handed to fetch for this item (every attempt counted). */
  bytesSent: number;
  via: string;
  attempts: number;
  error: string | null;
}

export interface ReplayResult {
  items: ReplayItemResult[];
  ok: boolean;
  seconds: number;
}

export interface ReplayOptions {
  queue: QueueExport;
  serverUrl: string;
  filesDir: string;
  jar: CookieFetch;
  timeoutMs: number;
  signal?: AbortSignal;
  engineDeps?: NodeEngineDeps;
}

export function parseQueueExport(text: string): QueueExport {
  const value = JSON.parse(text) as Partial<QueueExport>;
  if (value.format !== 'cloud-drive-queue' || value.version !== 1 || !Array.isArray(value.items)) {
    throw new Error('not a queue export (expected format "cloud-drive-queue", version 1)');
  }
  return value as QueueExport;
}

/** Resolves a path under `dir` without letting `..` or an absolute path escape it. */
function inside(dir: string, relative: string): string | null {
  const resolved = path.resolve(dir, relative.replace(/^\/+/, ''));
  return resolved.startsWith(path.resolve(dir) + path.sep) ? resolved : null;
}

/** The file for an upload item, or the reason there is none. */
async function findFile(item: ExportItem, filesDir: string): Promise<{ path: string } | { missing: string }> {
  const candidates = [item.relativePath, item.name].filter((c): c is string => !!c);
  let sizeMismatch: string | null = null;
  for (const candidate of candidates) {
    const full = inside(filesDir, candidate);
    if (!full) continue;
    const stat = await fsp.stat(full).catch(() => null);
    if (!stat?.isFile()) continue;
    if (stat.size === item.size) return { path: full };
    sizeMismatch = `${candidate}: size ${stat.size} ≠ ${item.size}`;
  }
  return { missing: sizeMismatch ?? `no file ${candidates.join(' or ')} under ${filesDir}` };
}

export async function replayQueue(options: ReplayOptions): Promise<ReplayResult> {
  const started = Date.now();
  const { engine, db, jar, close } = createNodeEngine(options.serverUrl, options.jar, options.engineDeps);
  const results: Array<ReplayItemResult & { engineId?: string }> = [];
  try {
    await engine.start();
    for (const item of options.queue.items) {
      const base: ReplayItemResult = { name: item.name, direction: item.direction, outcome: '', size: item.size, bytesSent: 0, via: '-', attempts: 0, error: null };
      if (item.state === 'cancelled') {
        results.push({ ...base, outcome: 'skipped (cancelled in export)' });
        continue;
      }
      if (item.direction === 'download') {
        results.push({ ...base, outcome: "skipped (downloads are the browser's own, not the engine's)" });
        continue;
      }
      const found = await findFile(item, options.filesDir);
      if ('missing' in found) {
        results.push({ ...base, outcome: 'missing', error: found.missing });
        continue;
      }
      const file = await openFileSource(found.path, item.name);
      const enqueueFolder = (engine as Partial<typeof engine>).enqueueFolder;
      try {
        const [id] =
          item.relativePath?.includes('/') && typeof enqueueFolder === 'function'
            ? await enqueueFolder.call(engine, [{ file, relativePath: item.relativePath }], item.target)
            : await engine.enqueueUploads([file], item.target);
        results.push({ ...base, engineId: id });
      } catch (error) {
        results.push({ ...base, outcome: 'not enqueued', error: error instanceof Error ? error.message : String(error) });
      }
    }

    const ids = results.map((r) => r.engineId).filter((id): id is string => !!id);
    let views: TransferItemView[] = [];
    try {
      views = (await waitUntilSettled(engine, { timeoutMs: options.timeoutMs, signal: options.signal, ids })).items;
    } catch (error) {
      views = (await engine.getSnapshot()).items;
      for (const r of results) if (r.engineId && !r.error) r.error = error instanceof Error ? error.message.split(':')[0]! : String(error);
    }
    for (const r of results) {
      if (!r.engineId) continue;
      const view = views.find((v) => v.id === r.engineId);
      if (!view) {
        r.outcome = 'lost';
        continue;
      }
      const record = r.direction === 'upload' ? await db.uploads.get(r.engineId) : undefined;
      r.outcome = view.state;
      r.via = view.via ?? (view.state === 'done' && r.direction === 'upload' ? 'chunks' : '-');
      r.attempts = record?.attempts ?? 0;
      r.bytesSent = record?.uploadId ? (jar.counters.chunkBytesByUpload.get(record.uploadId) ?? 0) : 0;
      r.error = view.lastError ?? r.error;
      if (view.state !== 'done') r.error ??= `ended in state ${view.state}`;
    }
  } finally {
    await close();
  }
  const items = results.map(({ engineId: _engineId, ...rest }) => rest);
  return {
    items,
    ok: items.every((i) => i.outcome === 'done' || i.outcome.startsWith('skipped')),
    seconds: (Date.now() - started) / 1000,
  };
}

export function formatReplay(result: ReplayResult): string[] {
  const lines = result.items.map(
    (i) =>
      `${i.direction === 'upload' ? '↑' : '↓'} ${i.name}  ${i.outcome}  size=${i.size}  sent=${i.bytesSent}  via=${i.via}  attempts=${i.attempts}${i.error ? `  error=${i.error}` : ''}`,
  );
  const count = (pred: (i: ReplayItemResult) => boolean) => result.items.filter(pred).length;
  const sent = result.items.reduce((n, i) => n + i.bytesSent, 0);
  lines.push(
    `summary: ${result.items.length} items, ${count((i) => i.outcome === 'done')} done ` +
      `(${count((i) => i.via === 'instant')} instant), ${count((i) => i.outcome === 'missing')} missing, ` +
      `${count((i) => i.outcome !== 'done' && i.outcome !== 'missing' && !i.outcome.startsWith('skipped'))} not done, ` +
      `${sent} chunk bytes sent, ${result.seconds.toFixed(1)} s → ${result.ok ? 'OK' : 'FAILED'}`,
  );
  return lines;
}
