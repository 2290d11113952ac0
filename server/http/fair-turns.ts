import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Fair turns (issue 36, the load bench): the server starts requests in arrival order, a few
 * milliseconds of work per event-loop phase, so that a busy process keeps accepting new connections.
 *
 * Why: since libuv 1.45 (Node 20) a listening socket accepts ONE connection per event-loop iteration
 * (libuv#3696), and one iteration runs every request whose bytes arrived meanwhile. With 200 kept-alive
 * connections in a closed loop, an iteration is ~200 requests (~100 ms on SQLite), so connections
 * waiting in the kernel's accept queue were accepted ~10 a second: the 200th waited ~20 s while the
 * others were answered in ~100 ms (wrk: p99 7 s and requests over its 10 s timeout; `ss -ltn` showed
 * 170 connections in the accept queue). A browser opening its connections while the server is busy
 * is that newcomer.
 *
 * How: each request's handling starts at once while the current phase has used less than
 * `budgetMs` since its first request, and no request is waiting. Past it, the request waits in line
 * (FIFO) for a later check phase (setImmediate); each check phase runs waiting requests until its own
 * budget is spent and leaves the rest for the next iteration, whose poll phase first accepts the next
 * connection and reads what arrived. Iterations stay ~2 budgets long whatever the number of
 * connections, so the accept queue drains in a second, and nobody waits longer than the line ahead.
 * A request that arrives while others wait goes behind them, never ahead.
 *
 * Only the start of a request is scheduled: its body, its database round trips and its answer's
 * bytes run when they come, so long downloads and uploads are not slowed.
 */
export interface FairTurnOptions {
  /** Work per event-loop phase before later requests wait for the next turn. */
  budgetMs: number;
  /** The clock (tests give one that advances per request). */
  now?: () => number;
}

/** Long enough that the extra turns cost nothing measurable; short enough to accept ~100 connections a second under full load. */
export const FAIR_TURN_BUDGET_MS = 4;

type Job = () => void;

/** The scheduler itself, without HTTP (tested alone in tests/unit/server/fair-turns.test.ts). */
export class FairTurns {
  private readonly budgetMs: number;
  private readonly now: () => number;
  private sliceOpen = false;
  private sliceStart = 0;
  /** Requests admitted to a later turn and not yet started. */
  private waiting = 0;

  constructor(options: FairTurnOptions) {
    this.budgetMs = options.budgetMs;
    this.now = options.now ?? (() => performance.now());
  }

  /** Runs `job` now, or in a later turn after everything already waiting. */
  admit(job: Job): void {
    if (this.waiting === 0 && this.spent() < this.budgetMs) {
      job();
      return;
    }
    this.waiting++;
    setImmediate(this.attempt, job);
  }

  /** How many requests wait for a later turn. */
  get queued(): number {
    return this.waiting;
  }

  /**
   * Time used in this phase. A phase's slice opens with its first request and closes in the next
   * check phase (an immediate queued before any waiting request's, so it runs first there).
   */
  private spent(): number {
    if (!this.sliceOpen) {
      this.sliceOpen = true;
      this.sliceStart = this.now();
      setImmediate(this.closeSlice);
    }
    return this.now() - this.sliceStart;
  }

  private readonly closeSlice = (): void => {
    this.sliceOpen = false;
  };

  /** One waiting request's turn: it runs, or (budget spent) goes to the next iteration, keeping its place. */
  private readonly attempt = (job: Job): void => {
    if (this.spent() >= this.budgetMs) {
      setImmediate(this.attempt, job);
      return;
    }
    this.waiting--;
    job();
  };
}

/**
 * Puts every 'request' listener of `server` registered so far (Fastify's handler, and hooks
 * registered before it) behind one FairTurns. Requests re-emitted later (checkContinue) pass too.
 */
export function installFairTurns(server: Server, options: FairTurnOptions = { budgetMs: FAIR_TURN_BUDGET_MS }): FairTurns {
  const turns = new FairTurns(options);
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    turns.admit(() => {
      for (const listener of listeners) listener.call(server, req, res);
    });
  });
  return turns;
}
