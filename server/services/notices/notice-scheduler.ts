import type { SystemNoticeRepository } from '../../repositories/system-notice-repository';
import type { NoticeDelivery } from './delivery';

/** A timer longer than this is re-armed in steps (setTimeout's limit is ~24.8 days; a clock may jump). */
const MAX_WAIT_MS = 60 * 60 * 1000;

/**
 * Scheduled notices need no job to come out: readers' queries take `publish_at <= now`. What needs a
 * timer is telling the connected readers at that moment: this wakes at the next scheduled time and
 * pushes every notice whose time came since it last looked.
 */
export class NoticeScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastLook = Date.now();
  private stopped = true;
  private running: Promise<void> | null = null;

  constructor(
    private readonly repo: SystemNoticeRepository,
    private readonly delivery: NoticeDelivery,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.lastLook = Date.now();
    this.rearm();
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.running ?? Promise.resolve();
  }

  /** A notice was scheduled (or rescheduled): wake for the earliest one. */
  rearm(): void {
    if (this.stopped) return;
    void this.arm().catch(this.onError);
  }

  private async arm(): Promise<void> {
    // From the last look, not from now: a timer may fire a millisecond before Date.now() reaches the
    // time it waited for, and that notice must still get the next timer rather than none.
    const next = await this.repo.nextScheduled(this.lastLook);
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!next) return;
    const wait = Math.max(0, Math.min(next.publish_at - Date.now(), MAX_WAIT_MS));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => (this.running = null));
    }, wait);
    this.timer.unref?.();
  }

  /** Announces what came out since the last look; then waits for the next one. */
  async tick(now = Date.now()): Promise<void> {
    try {
      const out = await this.repo.cameOut(this.lastLook, now);
      this.lastLook = now;
      for (const notice of out) await this.delivery.systemChanged(notice, await this.repo.targets([notice.id]), 'published');
    } catch (err) {
      this.onError(err);
    }
    this.rearm();
  }
}
