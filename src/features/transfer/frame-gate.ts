/**
 * Hands the latest of a stream of values on once per animation frame: values pushed between two frames
 * make one delivery (the last), and while the tab is hidden — browsers run no animation frames then —
 * none at all, until it is shown again. The transfer panel renders the engine's snapshots through it,
 * so a burst of state changes is one React commit, and a tab in the background does no rendering for
 * an upload nobody sees (issue 43).
 */
export interface FrameGate<T> {
  push(value: T): void;
  dispose(): void;
}

export interface FrameClock {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

const animationFrames: FrameClock = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

export function createFrameGate<T>(deliver: (value: T) => void, clock: FrameClock = animationFrames): FrameGate<T> {
  let pending: { value: T } | null = null;
  let frame: number | null = null;
  const flush = (): void => {
    frame = null;
    const next = pending;
    pending = null;
    if (next) deliver(next.value);
  };
  return {
    push(value) {
      pending = { value };
      frame ??= clock.request(flush);
    },
    dispose() {
      if (frame !== null) clock.cancel(frame);
      frame = null;
      pending = null;
    },
  };
}
