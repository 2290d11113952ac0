/**
 * Bandwidth limits (bytes per second, 0 = none): a token bucket that a transfer asks before each
 * piece it sends or writes. One bucket per direction is shared by every transfer of the engine, so
 * the limit holds for the sum. The rate can change at any time (the user moves the slider).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private rate: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep,
  ) {
    this.tokens = rate;
    this.last = now();
  }

  setRate(rate: number): void {
    this.refill();
    this.rate = rate;
    this.tokens = Math.min(this.tokens, rate);
  }

  get limit(): number {
    return this.rate;
  }

  private refill(): void {
    const t = this.now();
    // A bucket holds at most one second of traffic: a pause does not earn a burst.
    this.tokens = Math.min(this.rate, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
  }

  /** Waits until `bytes` may pass (at once when unlimited). */
  async take(bytes: number, signal?: AbortSignal): Promise<void> {
    while (this.rate > 0) {
      signal?.throwIfAborted();
      this.refill();
      if (this.tokens >= Math.min(bytes, this.rate)) {
        this.tokens -= bytes; // may go negative: a piece larger than a second's worth waits it off next time
        return;
      }
      const missing = Math.min(bytes, this.rate) - this.tokens;
      await this.sleep(Math.max(5, Math.ceil((missing / this.rate) * 1000)), signal);
    }
  }
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
