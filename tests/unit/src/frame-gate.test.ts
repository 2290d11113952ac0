import { describe, expect, it } from 'vitest';
import { createFrameGate, type FrameClock } from '../../../src/features/transfer/frame-gate';

/** Animation frames run by hand; `hidden`: the browser runs none (a tab in the background). */
function manualFrames() {
  let next = 1;
  const waiting = new Map<number, () => void>();
  const clock: FrameClock = {
    request: (callback) => {
      waiting.set(next, callback);
      return next++;
    },
    cancel: (handle) => void waiting.delete(handle),
  };
  const frame = (): void => {
    const due = [...waiting.values()];
    waiting.clear();
    for (const callback of due) callback();
  };
  return { clock, frame, requested: () => waiting.size };
}

describe('snapshots rendered once a frame (frame-gate)', () => {
  it('delivers only the last of the values pushed between two frames, in the frame', () => {
    const frames = manualFrames();
    const delivered: number[] = [];
    const gate = createFrameGate<number>((v) => delivered.push(v), frames.clock);
    gate.push(1);
    gate.push(2);
    gate.push(3);
    expect(delivered).toEqual([]);
    expect(frames.requested()).toBe(1);
    frames.frame();
    expect(delivered).toEqual([3]);
    frames.frame();
    expect(delivered).toEqual([3]);
    gate.push(4);
    frames.frame();
    expect(delivered).toEqual([3, 4]);
  });

  it('renders nothing while no frame runs (a hidden tab), then the latest value once it is shown', () => {
    const frames = manualFrames();
    const delivered: number[] = [];
    const gate = createFrameGate<number>((v) => delivered.push(v), frames.clock);
    for (let second = 1; second <= 60; second++) gate.push(second);
    expect(delivered).toEqual([]);
    expect(frames.requested()).toBe(1);
    frames.frame();
    expect(delivered).toEqual([60]);
  });

  it('delivers nothing after dispose', () => {
    const frames = manualFrames();
    const delivered: number[] = [];
    const gate = createFrameGate<number>((v) => delivered.push(v), frames.clock);
    gate.push(1);
    gate.dispose();
    frames.frame();
    expect(delivered).toEqual([]);
    expect(frames.requested()).toBe(0);
  });
});
