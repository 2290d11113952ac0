/**
 * The file list asked again after an upload reaches 已完成 (use-entry-pages.ts quietReload): the
 * listing's observer hears nothing until the answer comes, so the file browser renders once, with the
 * new row — not for the refetch's start (fetchStatus) and again for the answer (issue 43).
 */
import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../common/api/types';
import type { EntryPage, Pages } from '../../../src/features/files/listing/edit-cached-pages';
import { quietNotifyProps, quietReload, type QuietFlag } from '../../../src/features/files/listing/use-entry-pages';

const KEY = ['files', 'personal'];
const entry = (id: string) => ({ id, name: `${id}.txt` }) as FileEntry;
const settle = () => new Promise((r) => setTimeout(r, 0));

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
});

/** A loaded one-page listing observed as the file browser observes it; `heard` counts its notifications. */
async function observedListing() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 0 } } });
  const asked: Array<{ resolve: (page: EntryPage<FileEntry>) => void; reject: (e: Error) => void }> = [];
  const quiet: QuietFlag = { current: false };
  const observer = new InfiniteQueryObserver(client, {
    queryKey: KEY,
    queryFn: () => new Promise<EntryPage<FileEntry>>((resolve, reject) => asked.push({ resolve, reject })),
    initialPageParam: null as string | null,
    getNextPageParam: (last: EntryPage<FileEntry>) => last.nextCursor,
    notifyOnChangeProps: quietNotifyProps(quiet),
  });
  let heard = 0;
  stops.push(observer.subscribe(() => heard++));
  await settle();
  asked[0]!.resolve({ items: [entry('a')], nextCursor: null });
  await settle();
  const rows = () => (observer.getCurrentResult().data?.pages ?? []).flatMap((p) => p.items.map((e) => e.id));
  return { client, asked, quiet, observer, rows, heard: () => heard };
}

describe('quietReload', () => {
  it('is heard once, with the answer, and not when the refetch starts', async () => {
    const l = await observedListing();
    expect(l.rows()).toEqual(['a']);
    const before = l.heard();
    const reloaded = quietReload<FileEntry>(l.client, KEY, l.quiet);
    await settle();
    expect(l.asked).toHaveLength(2);
    expect(l.heard()).toBe(before);
    l.asked[1]!.resolve({ items: [entry('a'), entry('new')], nextCursor: null });
    await reloaded;
    await settle();
    expect(l.heard()).toBe(before + 1);
    expect(l.rows()).toEqual(['a', 'new']);
    expect(l.observer.getCurrentResult().fetchStatus).toBe('idle');
    expect(l.quiet.current).toBe(false);
  });

  it('a failed refresh is heard (its error)', async () => {
    const l = await observedListing();
    const before = l.heard();
    const reloaded = quietReload<FileEntry>(l.client, KEY, l.quiet);
    await settle();
    l.asked[1]!.reject(new Error('offline'));
    await reloaded.catch(() => undefined);
    await settle();
    expect(l.heard()).toBeGreaterThan(before);
    expect(l.observer.getCurrentResult().error?.message).toBe('offline');
  });

  it('outside a quiet refresh every change is heard, the refetch start included', async () => {
    const l = await observedListing();
    const before = l.heard();
    void l.client.refetchQueries({ queryKey: KEY, exact: true });
    await settle();
    expect(l.heard()).toBeGreaterThan(before);
  });

  it('keeps a one-page listing the same data object until the answer (nothing to cut)', async () => {
    const l = await observedListing();
    const data = l.client.getQueryData<Pages<FileEntry>>(KEY);
    void quietReload<FileEntry>(l.client, KEY, l.quiet);
    await settle();
    expect(l.client.getQueryData<Pages<FileEntry>>(KEY)).toBe(data);
  });
});
