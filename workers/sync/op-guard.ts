/**
 * How the executor runs one operation (executor.ts): a failure sorted into the fail list, the next
 * pass or an interrupted pass, and the remote folder an operation's entry goes into.
 */
import type { ExecuteDeps } from './executor';
import { LocalFsError, RemoteError } from './ports';
import { parentKey } from './tree';

/** The pass cannot go on (no server, session gone): retry later. */
export class PassInterrupted extends Error {
  constructor(readonly reason: RemoteError) {
    super(reason.message);
    this.name = 'PassInterrupted';
  }
}

export type Outcome = 'changed' | 'journal' | 'skipped' | 'moveFailed';

/**
 * Runs one operation; sorts its failure: refusals and local errors into the fail list, server
 * unreachable → PassInterrupted, a conflict or vanished entry → skipped (planned again next pass).
 */
export async function guarded(deps: ExecuteDeps, path: string, action: string, run: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await run();
  } catch (error) {
    if (deps.signal.aborted) throw deps.signal.reason;
    if (error instanceof RemoteError) {
      if (error.kind === 'transient' || error.kind === 'unauthorized') throw new PassInterrupted(error);
      if (error.kind === 'refused') deps.log.failed(path, action, `${action}“${path}”失败：${error.message}`);
      else deps.log.retryLater(path);
      return 'skipped';
    }
    if (error instanceof LocalFsError) {
      if (error.code === 'missing' || error.code === 'exists') deps.log.retryLater(path, '本地有新的改动，下次同步时重新处理');
      else deps.log.failed(path, action, error.message);
      return 'skipped';
    }
    throw error;
  }
}

/** The remote id of the folder that holds `key` ('' → the pair's root), or null when it is unknown. */
export function parentIdOf(deps: ExecuteDeps, key: string): string | null {
  const parent = parentKey(key);
  if (parent === '') return deps.rootId;
  return deps.remoteIds.get(parent) ?? null;
}
