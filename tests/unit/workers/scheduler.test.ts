import { describe, expect, it } from 'vitest';
import { BATCH_MAX_BYTES, BATCH_MAX_FILES } from '../../../common/transfer/batch-upload';
import { liveOf, type LiveItem } from '../../../workers/engine/live-item';
import { planStarts, type Start } from '../../../workers/engine/scheduler';
import { newUploadRecord } from '../../../workers/queue/records';

const item = (id: string, size: number, state: LiveItem['record']['state'] = 'waiting'): LiveItem => {
  const file = new Blob([new Uint8Array(0)]);
  const record = { ...newUploadRecord({ id, file, target: { parentId: null, category: 1 }, createdAt: 1, relativePath: null, chunkConcurrency: 3 }), size, state };
  return liveOf(record, file);
};
const small = (live: LiveItem) => live.record.size <= 1000;
const shape = (starts: Start[]) => starts.map((s) => (s.kind === 'single' ? s.live.record.id : s.lives.map((l) => l.record.id).join('+')));

describe('planStarts: which waiting items start, in queue order', () => {
  it('a large file takes a place of its own, small ones share one batch place', () => {
    const items = [item('a', 10), item('B', 5000), item('c', 10), item('d', 10)];
    expect(shape(planStarts(items, 2, small))).toEqual(['B', 'a+c+d']);
    expect(shape(planStarts(items, 1, small))).toEqual(['a']);
  });

  it('skips items that are not waiting or already running, and starts nothing without a free place', () => {
    const running = item('r', 10);
    running.run = new AbortController();
    const items = [item('p', 10, 'paused'), running, item('w', 10)];
    expect(shape(planStarts(items, 2, small))).toEqual(['w']);
    expect(planStarts(items, 0, small)).toEqual([]);
  });

  it('a batch closes at BATCH_MAX_FILES files or BATCH_MAX_BYTES bytes; each batch takes a place', () => {
    const many = Array.from({ length: BATCH_MAX_FILES + 1 }, (_, i) => item(`f${i}`, 1));
    const starts = planStarts(many, 2, () => true);
    expect(starts.map((s) => (s.kind === 'batch' ? s.lives.length : 0))).toEqual([BATCH_MAX_FILES, 1]);
    expect(planStarts(many, 1, () => true)).toHaveLength(1);
    const heavy = [item('h1', BATCH_MAX_BYTES - 10), item('h2', 20), item('h3', 5)];
    expect(shape(planStarts(heavy, 3, () => true))).toEqual(['h1', 'h2+h3']);
  });
});
