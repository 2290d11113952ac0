/**
 * Writers of one chunk (`<uploadId>/<index>`) run one at a time, and one that has gone quiet does not
 * hold the chunk from the next.
 *
 * A client sends a chunk again only after giving up on its earlier request (its stall timeout, or the
 * attempt failed), but the server may never learn that the earlier one is gone: a proxy or a NAT may
 * keep its connection open, a half-open TCP connection never ends, and the server sets no time limit
 * on a request (a chunk may take minutes on a slow link). Such a request, waiting for bytes that will
 * never come, would hold the chunk for good, and every retry of it would queue behind it until the
 * client gives up on the upload. So while another request waits for the chunk, the writer holding it
 * is cut, as a dropped connection would cut it (what it received stays as the chunk's partial, which
 * the waiting request continues or replaces), once its body has been idle for IDLE_WRITER_CUT_MS.
 * A writer whose bytes keep coming is never cut (two live writers of one chunk, e.g. two queue items
 * of the same file sharing an announced session, still run one after the other and both get their
 * answer), nor one that is not waiting for the network (opening the partial, or making a whole body
 * durable and recording it: bounded by the disk).
 *
 * Across server processes (PostgreSQL) the chunk is held through the server's Locks (LOCK_KEYS.chunk):
 * a retry that reaches another process waits for the holder there, and the holder hears it waiting
 * (LockOptions.onContended, repeated while it waits) and is cut on the same rule. A holder whose lock is
 * lost (its lock connection broke) is cut at once: another process may write the chunk now.
 */
import { LOCK_KEYS, type Locks } from './locks';

/** How long the holder's body may go without a byte while another request waits for its chunk. */
export const IDLE_WRITER_CUT_MS = 2_000;

/** What the writer holding a chunk tells about itself (given to its task). */
export interface ChunkWriter {
  /** Reading the body from the network starts (or resumes): from now on silence counts. */
  readingBody(): void;
  /** Body bytes arrived. */
  received(): void;
  /** The body is read (whole or cut): the rest is the server's work, never cut. */
  bodyDone(): void;
  /** Why the chunk's lock was lost (its read was then stopped or cut), or null while it is held. */
  lost(): unknown;
}

interface Holder {
  reading: boolean;
  lastByteAt: number;
  cut: () => void;
  wasCut: boolean;
}

export class ChunkWriters {
  private readonly holders = new Map<string, Holder>();
  /** Requests waiting for each chunk, and the timer that watches its holder meanwhile. */
  private readonly waiting = new Map<string, { count: number; timer: ReturnType<typeof setInterval> }>();

  constructor(
    private readonly locks: Locks,
    private readonly idleCutMs = IDLE_WRITER_CUT_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Runs `task` once it holds chunk `index` of `uploadId`. `cut` ends this request's body as a dropped
   * connection would (the task's read of it then fails or ends short); it is called at most once, only between
   * the task's readingBody() and bodyDone(), and only while another request waits for the chunk (or
   * once the lock is lost). A lost lock calls `stop` instead when given: the body's read ends but the
   * request stays open, so the client is answered (coded) rather than dropped; the writer was not idle.
   */
  async run<T>(uploadId: string, index: number, cut: () => void, task: (writer: ChunkWriter) => Promise<T>, stop?: () => void): Promise<T> {
    const key = LOCK_KEYS.chunk(uploadId, index);
    this.wait(key);
    let waited = true;
    const stopWaiting = () => {
      if (waited) this.leave(key);
      waited = false;
    };
    try {
      return await this.locks.run(
        key,
        async (hold) => {
          stopWaiting();
          const holder: Holder = { reading: false, lastByteAt: this.now(), cut, wasCut: false };
          this.holders.set(key, holder);
          // Lost lock: a body still being read is cut (what came stays as the partial); later steps check the signal.
          const lost = () => {
            if (holder.wasCut || !holder.reading) return;
            holder.wasCut = true;
            (stop ?? cut)();
          };
          hold.signal.addEventListener('abort', lost, { once: true });
          try {
            return await task({
              readingBody: () => {
                holder.reading = true;
                holder.lastByteAt = this.now();
                // Lost before the read began (while the partial was opened): stop at once, or the body
                // would be read to its end, and a client that waits for the answer first never gets one.
                if (hold.signal.aborted) lost();
              },
              received: () => {
                holder.lastByteAt = this.now();
              },
              bodyDone: () => {
                holder.reading = false;
              },
              lost: () => (hold.signal.aborted ? (hold.signal.reason as unknown) : null),
            });
          } finally {
            hold.signal.removeEventListener('abort', lost);
            this.holders.delete(key);
          }
        },
        { onContended: () => this.cutIfIdle(key) },
      );
    } finally {
      stopWaiting();
    }
  }

  private wait(key: string): void {
    const entry = this.waiting.get(key);
    if (entry) {
      entry.count++;
      return;
    }
    // Checked a few times per idle period: a quiet holder is cut at most a quarter period late.
    const timer = setInterval(() => this.cutIfIdle(key), Math.max(1, Math.floor(this.idleCutMs / 4)));
    timer.unref();
    this.waiting.set(key, { count: 1, timer });
  }

  private leave(key: string): void {
    const entry = this.waiting.get(key);
    if (!entry || --entry.count > 0) return;
    clearInterval(entry.timer);
    this.waiting.delete(key);
  }

  private cutIfIdle(key: string): void {
    const holder = this.holders.get(key);
    if (!holder || !holder.reading || holder.wasCut || this.now() - holder.lastByteAt < this.idleCutMs) return;
    holder.wasCut = true;
    holder.cut();
  }
}
