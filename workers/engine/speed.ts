/**
 * Transfer speed smoothed by an exponential moving average with a half-life (as Uppy does), so the
 * figure and the ETA derived from it do not jump with every chunk.
 */
import { SPEED_HALF_LIFE_MS } from '../../common/transfer/constants';

export class SpeedMeter {
  private rate = 0;
  private lastAt: number | null = null;
  /** Bytes recorded with no time elapsed yet, carried into the next sample. */
  private pendingBytes = 0;

  constructor(private readonly halfLifeMs: number = SPEED_HALF_LIFE_MS) {}

  /** Starts measuring at `now` (the first sample then covers the time since the start). */
  start(now: number): void {
    this.lastAt = now;
  }

  /** `bytes` finished at `now`: folds bytes/elapsed into the average, weighted by elapsed time. */
  record(bytes: number, now: number): void {
    if (this.lastAt === null) {
      this.lastAt = now;
      return;
    }
    const elapsed = now - this.lastAt;
    if (elapsed <= 0) {
      // Several chunks finishing in the same millisecond: fold them into the next sample.
      this.pendingBytes += bytes;
      return;
    }
    const instant = ((bytes + this.pendingBytes) * 1000) / elapsed;
    const weight = 1 - 0.5 ** (elapsed / this.halfLifeMs);
    this.rate += weight * (instant - this.rate);
    this.pendingBytes = 0;
    this.lastAt = now;
  }

  /** Bytes per second. */
  get bytesPerSecond(): number {
    return this.rate;
  }

  reset(): void {
    this.rate = 0;
    this.lastAt = null;
    this.pendingBytes = 0;
  }
}

/** Seconds left at `bytesPerSecond`, or null when the speed is unknown. */
export function etaSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (bytesPerSecond <= 0) return null;
  return Math.ceil(Math.max(0, remainingBytes) / bytesPerSecond);
}
