import { describe, expect, it } from 'vitest';
import type { TransferItemView, TransferSnapshot } from '../../../common/transfer/engine-api';
import { SnapshotAssembler, SnapshotDiffer, sameView } from '../../../common/transfer/snapshot-changes';

function view(id: string, patch: Partial<TransferItemView> = {}): TransferItemView {
  return { id, direction: 'upload', name: `${id}.bin`, size: 4096, bytesDone: 0, state: 'waiting', speed: 0, etaSeconds: null, lastError: null, target: { parentId: 'p', category: 0 }, fileId: null, createdAt: 1, ...patch } as TransferItemView;
}
const snap = (items: TransferItemView[]): TransferSnapshot => ({ items, totalBytes: items.length * 4096, doneBytes: items.filter((i) => i.state === 'done').length * 4096, speed: 0 });
/** A new object for every item, as a structured clone (or the engine's views) gives. */
const cloned = (s: TransferSnapshot): TransferSnapshot => structuredClone(s);

describe('snapshots as changes', () => {
  it('sends every item first, then only the items that changed, came or went', () => {
    const differ = new SnapshotDiffer();
    const items = Array.from({ length: 1000 }, (_, i) => view(`i${i}`));
    const first = differ.next(cloned(snap(items)))!;
    expect(first).toMatchObject({ seq: 1, full: true, removed: [] });
    expect(first.items).toHaveLength(1000);

    // Nothing changed: nothing to send, and the count stays (a receiver sees no gap).
    expect(differ.next(cloned(snap(items)))).toBeNull();
    expect(differ.next({ ...cloned(snap(items)), speed: 10 })).toMatchObject({ seq: 2, full: false, items: [], removed: [], speed: 10 });

    items[3] = view('i3', { state: 'done', bytesDone: 4096, fileId: 'f3' });
    items.splice(10, 1);
    items.push(view('new'));
    const third = differ.next(cloned(snap(items)))!;
    expect(third.seq).toBe(3);
    expect(third.items.map((i) => i.id)).toEqual(['i3', 'new']);
    expect(third.removed).toEqual(['i10']);
    expect(third.doneBytes).toBe(4096);
  });

  it('rebuilds the same snapshot on the receiving side, keeping unchanged items the same objects', () => {
    const differ = new SnapshotDiffer();
    const assembler = new SnapshotAssembler();
    let items = Array.from({ length: 50 }, (_, i) => view(`i${i}`));
    const a = assembler.apply(structuredClone(differ.next(cloned(snap(items)))!))!;
    expect(a).toEqual(snap(items));

    items = items.map((item, i) => (i % 10 === 0 ? view(item.id, { state: 'uploading', bytesDone: 100, speed: 5 }) : item)).filter((i) => i.id !== 'i7');
    const b = assembler.apply(structuredClone(differ.next(cloned(snap(items)))!))!;
    expect(b).toEqual(snap(items));
    expect(b.items.find((i) => i.id === 'i1')).toBe(a.items.find((i) => i.id === 'i1'));
    expect(b.items.find((i) => i.id === 'i10')).not.toBe(a.items.find((i) => i.id === 'i10'));
  });

  it('refuses an update that does not follow the last one applied, until a full one comes', () => {
    const differ = new SnapshotDiffer();
    const items = [view('a'), view('b')];
    differ.next(snap(items)); // the receiver missed the first (full) update
    const late = new SnapshotAssembler();
    items[0] = view('a', { state: 'uploading' });
    const second = differ.next(snap(items))!;
    expect(late.apply(second)).toBeNull();
    items[1] = view('b', { state: 'paused' });
    const third = differ.next(snap(items))!;
    const full = differ.fullUpdate()!;
    expect(full).toMatchObject({ seq: third.seq, full: true });
    expect(late.apply(full)).toEqual(snap(items));
    items[0] = view('a', { state: 'done' });
    expect(late.apply(differ.next(snap(items))!)).toEqual(snap(items));
  });

  it('compares views field by field, the target by its parts', () => {
    expect(sameView(view('a'), view('a'))).toBe(true);
    expect(sameView(view('a'), view('a', { target: { parentId: 'q', category: 0 } as TransferItemView['target'] }))).toBe(false);
    expect(sameView(view('a'), view('a', { relativePath: 'x/a.bin' }))).toBe(false);
    expect(sameView(view('a', { speed: 1 }), view('a', { speed: 2 }))).toBe(false);
  });
});
