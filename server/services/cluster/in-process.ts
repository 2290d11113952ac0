import { aborted, LeadRunner } from './lead-runner';
import type { BusHandler, BusPayload, EventBus, LeaderWork, Leadership } from './ports';

/**
 * One process (SQLite): an event reaches this process's handlers only, on a later turn (as it would
 * from another process), in the order published. Nothing is ever missed, so `onGap` never fires.
 */
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  constructor(private readonly onError: (err: unknown) => void) {}

  async publish(topic: string, payload: BusPayload): Promise<void> {
    const handlers = [...(this.handlers.get(topic) ?? [])];
    // A copy, as a payload through the database would be: a handler never shares the publisher's object.
    const copy = JSON.parse(JSON.stringify(payload)) as BusPayload;
    queueMicrotask(() => {
      for (const handler of handlers) {
        try {
          void Promise.resolve(handler(copy)).catch(this.onError);
        } catch (err) {
          this.onError(err);
        }
      }
    });
  }

  subscribe(topic: string, handler: BusHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  onGap(): () => void {
    return () => undefined;
  }

  async start(): Promise<void> {}
}

/** One process (SQLite): it is always the leader, from start to shutdown. */
export class SoleLeadership implements Leadership {
  private readonly runner: LeadRunner;
  private done: Promise<void> = Promise.resolve();

  constructor(onError: (err: unknown, message: string) => void) {
    this.runner = new LeadRunner(onError);
  }

  whileLeader(work: LeaderWork): void {
    this.runner.add(work);
  }

  get leading(): boolean {
    return this.runner.running;
  }

  start(signal: AbortSignal): void {
    this.runner.begin();
    this.done = aborted(signal).then(() => this.runner.end());
  }

  stopped(): Promise<void> {
    return this.done;
  }
}
