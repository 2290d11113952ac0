/**
 * The tenant's blocked upload types as the engine knows them: spec §3's canBeUploadTypeData. Each
 * round of pre-upload checks asks canBeUploadType once, with one name per distinct extension of the
 * batch (a folder of 1,000 photos asks about one name), in parallel with the other checks. Its answer
 * names the blocked type in the item's message and is kept in the queue's database, so a pick made
 * offline is judged at once: a blocked type fails before it is queued for later, the rest waits for
 * the full checks (enqueue.ts).
 */
import { PRE_UPLOAD } from '../../common/api/endpoints/pre-upload';
import { extensionOf } from '../../common/files/extension';
import type { TransferDb } from '../queue/db';
import { NetworkError, type ApiClient } from './api-client';
import { MESSAGES } from './messages';
import type { CheckOutcome } from './pre-upload-checks';

const META_KEY = 'canBeUploadTypeData';

/** What canBeUploadType last answered (blocked extensions, lower case without dot) and when. */
export interface UploadTypeData {
  blockedExtensions: string[];
  at: number;
}

export interface UploadTypes {
  /** Reads the kept list (once; later calls reuse it). */
  load(): Promise<void>;
  /**
   * Asks canBeUploadType about the names' types and keeps the answer. Resolves null when the server
   * could not answer (it enforces the rule itself at the first chunk); a NetworkError is thrown: the
   * caller is offline.
   */
  ask(names: string[], signal: AbortSignal): Promise<UploadTypeData | null>;
  /** The kept list's verdict: a failed outcome for a blocked type, null when allowed or when no list is kept. */
  localOutcome(name: string): CheckOutcome | null;
}

/** The failed outcome of a blocked type, naming it. */
export function blockedOutcome(extension: string): CheckOutcome {
  return { state: 'failed', holdReason: 'blockedType', lastError: MESSAGES.blockedTypeOf(extension) };
}

/** One name per distinct extension (names without one are never blocked by type). */
export function namesPerExtension(names: string[]): string[] {
  const byExtension = new Map<string, string>();
  for (const name of names) {
    const extension = extensionOf(name);
    if (extension && !byExtension.has(extension)) byExtension.set(extension, name);
  }
  return [...byExtension.values()];
}

export function createUploadTypes(api: Pick<ApiClient, 'send'>, db: TransferDb, now: () => number): UploadTypes {
  let known: UploadTypeData | null = null;
  let loading: Promise<void> | null = null;

  return {
    load() {
      loading ??= db.meta.get(META_KEY).then(
        (row) => {
          // An answer asked for meanwhile is newer than the kept one.
          known ??= (row?.value as UploadTypeData | undefined) ?? null;
        },
        () => undefined,
      );
      return loading;
    },

    async ask(names, signal) {
      let answer;
      try {
        answer = await api.send(PRE_UPLOAD.canBeUploadType, { names: namesPerExtension(names) }, signal);
      } catch (error) {
        if (signal.aborted || error instanceof NetworkError) throw error;
        return null;
      }
      known = { blockedExtensions: answer.blockedExtensions.map((e) => e.toLowerCase()), at: now() };
      await db.meta.put({ key: META_KEY, value: known }).catch(() => undefined);
      return known;
    },

    localOutcome(name) {
      const extension = extensionOf(name);
      return known && extension && known.blockedExtensions.includes(extension) ? blockedOutcome(extension) : null;
    },
  };
}
