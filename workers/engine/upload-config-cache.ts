/**
 * The server's upload config (chunk size, largest file), asked at most once per `ttlMs` and shared by
 * every item: a folder of 1,000 small files used to ask it 1,000 times, one round trip per file. A
 * change on the server (a new size limit) applies within a minute, a new chunk size at once (the
 * runner asks afresh when chunk/exist refuses the cached one); a failed request is not kept.
 */
import { UPLOADS } from '../../common/api/endpoints/uploads';
import type { UploadConfig } from '../../common/transfer/protocol';
import { untilAborted } from '../../common/until-aborted';
import type { ApiClient } from './api-client';

export const UPLOAD_CONFIG_TTL_MS = 60_000;

/** `fresh`: ask the server now, whatever is cached (it refused a chunk size: CHUNK_SIZE_CHANGED). */
export type UploadConfigSource = (signal: AbortSignal, fresh?: boolean) => Promise<UploadConfig>;

export function createUploadConfigCache(api: Pick<ApiClient, 'send'>, now: () => number, ttlMs = UPLOAD_CONFIG_TTL_MS): UploadConfigSource {
  let cached: { at: number; request: Promise<UploadConfig> } | null = null;
  return (signal, fresh = false) => {
    signal.throwIfAborted();
    if (!cached || fresh || now() - cached.at >= ttlMs) {
      // Not tied to the first asker's signal: a paused item must not fail the others' shared request.
      const request = api.send(UPLOADS.config, undefined, new AbortController().signal);
      const entry = { at: now(), request };
      request.catch(() => {
        if (cached === entry) cached = null;
      });
      cached = entry;
    }
    return untilAborted(cached.request, signal);
  };
}
