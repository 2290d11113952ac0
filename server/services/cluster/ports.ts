/**
 * What several server processes on one database share beyond the database's rows (issue 36): events
 * every process must hear (an SSE client may be connected to any of them; a cache of any of them may
 * hold what just changed), and one leader for the periodic jobs. Each is one interface with two
 * implementations, chosen at the composition root (server/compose/cluster.ts): in-process ones on
 * SQLite (one process), PostgreSQL ones (server/db/pg-event-bus.ts, pg-leadership.ts) with DB_URL.
 */

/** A small JSON payload: ids and kinds, never content (PostgreSQL's NOTIFY carries < 8000 bytes). */
export type BusPayload = Record<string, unknown>;

export type BusHandler = (payload: BusPayload) => void | Promise<void>;

/**
 * Events for every server process, this one included. Delivery is at most once per process; a
 * process that may have missed some (its listening connection was lost and came back) hears
 * `onGap`, and each subscriber catches up from the database then.
 */
export interface EventBus {
  /** Resolves once the event is on its way to every process (a failure is thrown: log it, the state is in the database). */
  publish(topic: string, payload: BusPayload): Promise<void>;
  /** Handlers of a topic, in the order events were published by one process. Returns the unsubscribe. */
  subscribe(topic: string, handler: BusHandler): () => void;
  /** `since`: when this process last knew it heard everything (ms); catch up from then. */
  onGap(handler: (since: number) => void | Promise<void>): () => void;
  /** Starts listening (resolves once it does); stops when `signal` aborts. */
  start(signal: AbortSignal): Promise<void>;
}

/** Work of the leader only: runs while this process leads; `signal` aborts when it stops leading or shuts down. */
export type LeaderWork = (signal: AbortSignal) => void | Promise<void>;

/**
 * One process at a time leads the periodic jobs (sweeper, checkpoints, fingerprint upgrade): they cost
 * work, and N processes doing each pass N times would only waste it. Correctness never depends on
 * it: every job is safe when two processes run it at once (a leader that froze and came back late).
 */
export interface Leadership {
  /** Registers work run each time this process becomes the leader (before `start`). */
  whileLeader(work: LeaderWork): void;
  readonly leading: boolean;
  /** Starts competing for the lead; gives it up and stops the work when `signal` aborts. */
  start(signal: AbortSignal): void;
  /** Resolves when the work of the current lead has ended (after the signal given to `start` aborted). */
  stopped(): Promise<void>;
}
