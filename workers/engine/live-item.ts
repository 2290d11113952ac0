/**
 * One item of the engine in memory: its persisted record plus what only the running tab knows
 * (the bytes, the attempt, chunks in flight or confirmed but not saved yet, speed), and the view the
 * UI gets of it.
 */
import type { TransferItemView } from '../../common/transfer/engine-api';
import { isActive } from '../../common/transfer/states';
import type { UploadRecord } from '../queue/types';
import { etaSeconds, SpeedMeter } from './speed';

/** In-memory state of one item next to its persisted record. */
export interface LiveItem {
  record: UploadRecord;
  /** The bytes; may exist only here when IndexedDB refused to store the File. */
  file: Blob | null;
  /** The attempt currently running, if any. */
  run: AbortController | null;
  hashedBytes: number;
  /** Bytes sent so far of chunks in flight (not yet confirmed), by chunk index. */
  inflight: Map<number, number>;
  /** Chunks the server confirmed that are not in `record` yet (index → bytes): written in batches. */
  confirmed: Map<number, number>;
  /** The batch write that will take the chunks confirmed until it starts, if one is queued. */
  confirmedWrite: Promise<void> | null;
  /** Set while confirmations wait for CHUNK_PROGRESS_SAVE_MS before their batch is queued. */
  confirmedTimer: ReturnType<typeof setTimeout> | null;
  /**
   * How many chunks were known stored at the last failed attempt. Attempts count failures in a row:
   * an upload that keeps making progress — chunks confirmed, or found stored by the server when an
   * attempt asks chunk/exist (a chunk whose answer was lost on the way) — never runs out of them.
   * Kept here, not in the record: the record's progress is saved in batches, and a failure written
   * before its batch would count on.
   */
  doneAtLastFailure: number;
  /** When the current run of failures without progress began (now() of its first failure). */
  failingSince: number;
  speed: SpeedMeter;
}

export const ABORTED_BY_COMMAND = 'transfer stopped by a command';

/**
 * An attempt tried to change the state after a command had moved the item (e.g. an attempt that
 * started just as pauseAll ran): the command wins, the attempt ends quietly.
 */
export class OvertakenByCommand extends Error {
  constructor() {
    super(ABORTED_BY_COMMAND);
    this.name = 'OvertakenByCommand';
  }
}

export function liveOf(record: UploadRecord, file: Blob | null): LiveItem {
  return { record, file, run: null, hashedBytes: 0, inflight: new Map(), confirmed: new Map(), confirmedWrite: null, confirmedTimer: null, doneAtLastFailure: record.chunksDone.length, failingSince: 0, speed: new SpeedMeter() };
}

/** What the UI sees of an item: confirmed and in-flight bytes count as done, speed only while it runs. */
export function toView(live: LiveItem): TransferItemView {
  const r = live.record;
  const active = live.run !== null && isActive(r.state);
  const speed = active ? live.speed.bytesPerSecond : 0;
  let inflight = 0;
  for (const bytes of live.inflight.values()) inflight += bytes;
  for (const bytes of live.confirmed.values()) inflight += bytes;
  const bytesDone = Math.min(r.size, r.bytesDone + inflight);
  const view: TransferItemView = {
    id: r.id,
    direction: r.direction,
    name: r.name,
    size: r.size,
    bytesDone,
    state: r.state,
    speed,
    etaSeconds: active && r.state === 'uploading' ? etaSeconds(r.size - bytesDone, speed) : null,
    lastError: r.lastError,
    target: r.target,
    fileId: r.fileId,
    createdAt: r.createdAt,
    holdReason: r.holdReason,
  };
  if (r.state === 'hashing') view.hashedBytes = live.hashedBytes;
  if (r.relativePath) view.relativePath = r.relativePath;
  if (r.via) view.via = r.via;
  return view;
}
