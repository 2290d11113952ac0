import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../common/api/types';
import { editCachedPages, reloadCachedPages, type EntryPage, type Pages } from '../../../src/features/files/listing/edit-cached-pages';

const KEY = ['files', 'favorite'];
const entry = (id: string) => ({ id, name: `${id}.txt` }) as FileEntry;

/** A listing whose server answers are handed out by the test, one per fetch. */
function listing() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  const asked: Array<(page: EntryPage<FileEntry>) => void> = [];
  const observer = new InfiniteQueryObserver(client, {
    queryKey: KEY,
    queryFn: () => new Promise<EntryPage<FileEntry>>((resolve) => asked.push(resolve)),
    initialPageParam: null as string | null,
    getNextPageParam: (last: EntryPage<FileEntry>) => last.nextCursor,
  });
  const stop = observer.subscribe(() => undefined);
  const rows = () => (client.getQueryData<Pages<FileEntry>>(KEY)?.pages ?? []).flatMap((p) => p.items.map((e) => e.id));
  return { client, asked, rows, stop };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

/** A listing whose first answer (rows 'a' and 'b') has landed. */
async function loadedListing() {
  const l = listing();
  stops.push(l.stop);
  await settle();
  l.asked[0]!({ items: [entry('a'), entry('b')], nextCursor: null });
  await settle();
  return l;
}

describe('editCachedPages', () => {
  it('applies a change at once when nothing is being fetched', async () => {
    const l = await loadedListing();
    await editCachedPages<FileEntry>(l.client, KEY, (items) => items.filter((e) => e.id !== 'a'));
    expect(l.rows()).toEqual(['b']);
    expect(l.asked).toHaveLength(1);
  });

  it('keeps a dropped row dropped when an answer asked before the change arrives, and asks again', async () => {
    const l = await loadedListing();
    // A revalidation goes out; meanwhile the server confirms 取消收藏 of 'a'.
    void l.client.refetchQueries({ queryKey: KEY, exact: true });
    await settle();
    expect(l.asked).toHaveLength(2);
    await editCachedPages<FileEntry>(l.client, KEY, (items) => items.filter((e) => e.id !== 'a'));
    expect(l.rows()).toEqual(['b']);
    // The old answer (still listing 'a') lands late: it is no longer awaited.
    l.asked[1]!({ items: [entry('a'), entry('b')], nextCursor: null });
    await settle();
    expect(l.rows()).toEqual(['b']);
    // The listing was asked again after the change, and its answer is what shows.
    expect(l.asked).toHaveLength(3);
    l.asked[2]!({ items: [entry('b'), entry('c')], nextCursor: null });
    await settle();
    expect(l.rows()).toEqual(['b', 'c']);
  });
});

describe('reloadCachedPages', () => {
  it('after a change made during the first load, shows the answer asked after the change', async () => {
    const l = listing();
    stops.push(l.stop);
    await settle();
    expect(l.asked).toHaveLength(1);
    // A folder is made while the first page is still being fetched; the page then reloads.
    const reloaded = reloadCachedPages<FileEntry>(l.client, KEY);
    await settle();
    expect(l.asked).toHaveLength(2);
    // The answer asked before the change (without 'new') lands late: it is not shown.
    l.asked[0]!({ items: [entry('a')], nextCursor: null });
    l.asked[1]!({ items: [entry('a'), entry('new')], nextCursor: null });
    await reloaded;
    await settle();
    expect(l.rows()).toEqual(['a', 'new']);
  });

  it('asks a loaded listing again from its first page', async () => {
    const l = await loadedListing();
    const reloaded = reloadCachedPages<FileEntry>(l.client, KEY);
    await settle();
    expect(l.asked).toHaveLength(2);
    l.asked[1]!({ items: [entry('b'), entry('c')], nextCursor: null });
    await reloaded;
    expect(l.rows()).toEqual(['b', 'c']);
  });
});
