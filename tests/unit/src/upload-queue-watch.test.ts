/** lib/upload-queue.ts watchUpload: a page learns its upload's file from the engine's snapshots, without polling. */
import { describe, expect, it } from 'vitest';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { reportTransferItems, UPLOAD_CANCELLED, UPLOAD_REMOVED, watchUpload } from '../../../src/lib/upload-queue';

const item = (id: string, state: TransferItemView['state'], extra: Partial<TransferItemView> = {}): TransferItemView => ({
  id,
  direction: 'upload',
  name: `${id}.AppImage`,
  size: 100,
  bytesDone: 0,
  state,
  speed: 0,
  etaSeconds: null,
  lastError: null,
  target: { parentId: null, category: 1 },
  fileId: null,
  createdAt: 0,
  ...extra,
});

describe('watchUpload', () => {
  it('follows the item through the snapshots and resolves with the created file; a failure waits for a retry', async () => {
    const seen: string[] = [];
    const done = watchUpload('a', { onChange: (i) => seen.push(`${i.state}:${i.bytesDone}`) });
    reportTransferItems([]); // not in a snapshot yet: just queued
    reportTransferItems([item('a', 'uploading', { bytesDone: 40 })]);
    reportTransferItems([item('a', 'failed', { bytesDone: 40, lastError: '网络中断' })]);
    reportTransferItems([item('a', 'uploading', { bytesDone: 80 })]);
    reportTransferItems([item('a', 'done', { bytesDone: 100, fileId: 'file-1' })]);
    await expect(done).resolves.toBe('file-1');
    expect(seen).toEqual(['uploading:40', 'failed:40', 'uploading:80', 'done:100']);
  });

  it('resolves at once for an item already done in the last snapshot', async () => {
    reportTransferItems([item('b', 'done', { fileId: 'file-2' })]);
    await expect(watchUpload('b')).resolves.toBe('file-2');
  });

  it('rejects when the item is cancelled or taken off the list, or when the page stops waiting', async () => {
    const cancelled = watchUpload('c');
    reportTransferItems([item('c', 'cancelled')]);
    await expect(cancelled).rejects.toThrow(UPLOAD_CANCELLED);
    const removed = watchUpload('d');
    reportTransferItems([item('d', 'uploading')]);
    reportTransferItems([]);
    await expect(removed).rejects.toThrow(UPLOAD_REMOVED);
    const controller = new AbortController();
    const aborted = watchUpload('e', { signal: controller.signal });
    controller.abort(new Error('left the page'));
    await expect(aborted).rejects.toThrow('left the page');
    // Nothing left behind: a later snapshot settles nothing twice.
    reportTransferItems([item('e', 'done', { fileId: 'x' })]);
  });
});
