/**
 * Which waiting items start now, in queue order, given the free places (`fileConcurrency` minus what
 * runs): a file that is not batchable takes a place of its own; batchable small files are gathered
 * into batches of at most BATCH_MAX_FILES files and BATCH_MAX_BYTES, each batch taking one place.
 */
import { BATCH_MAX_BYTES, BATCH_MAX_FILES } from '../../common/transfer/batch-upload';
import type { LiveItem } from './live-item';

/** A file started on its own, or a batch of small files started together. */
export type Start = { kind: 'single'; live: LiveItem } | { kind: 'batch'; lives: LiveItem[] };

export function planStarts(items: Iterable<LiveItem>, freePlaces: number, batchable: (live: LiveItem) => boolean): Start[] {
  const starts: Start[] = [];
  let group: LiveItem[] | null = null;
  let groupBytes = 0;
  const used = () => starts.length + (group ? 1 : 0);
  for (const live of items) {
    if (live.record.state !== 'waiting' || live.run !== null) continue;
    if (!batchable(live)) {
      if (used() >= freePlaces) break;
      starts.push({ kind: 'single', live });
      continue;
    }
    if (group && (group.length === BATCH_MAX_FILES || groupBytes + live.record.size > BATCH_MAX_BYTES)) {
      starts.push({ kind: 'batch', lives: group });
      group = null;
    }
    if (!group) {
      if (used() >= freePlaces) break;
      group = [];
      groupBytes = 0;
    }
    group.push(live);
    groupBytes += live.record.size;
  }
  if (group) starts.push({ kind: 'batch', lives: group });
  return starts;
}
