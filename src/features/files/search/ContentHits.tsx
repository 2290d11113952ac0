import { Alert, Button, Empty, Flex, Spin, Tag } from 'antd';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContentHit, ContentSearchPage } from '../../../../common/api/types';
import { FileKindIcon } from '../../../components/FileKindIcon';
import { displayKindOf } from '../../../components/file-kind-look';
import { useOnline } from '../../../lib/data/online';
import { unifiedContentSearch } from '../files-api';
import { FileStateTags } from '../browser/FileStateTags';
import { lazyWhenOpen } from '../../../components/lazy-when-open';

const PreviewModal = lazyWhenOpen(() => import('../preview/PreviewModal').then((m) => m.PreviewModal), (p) => p.file !== null);

/** Where a content hit opens: its page, with the keyword looked for (the document viewer's target). */
interface OpenHit {
  hit: ContentHit;
  at: { page?: number; term: string };
}

/**
 * 统一搜索's 内容 group: files whose text holds the keyword (search inside files), newest text first,
 * each with the page it matched on and a snippet — the server sends the snippet as segments and marks
 * them here (never HTML from the server). A click opens the preview at that page with the keyword
 * found. Read through the data layer like every listing: cached pages show offline.
 */
export function ContentHits({ keyword }: { keyword: string }) {
  const online = useOnline();
  const [open, setOpen] = useState<OpenHit | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['files', 'unifiedContent', keyword],
    queryFn: ({ pageParam, signal }) => unifiedContentSearch(keyword, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ContentSearchPage) => last.nextCursor,
    staleTime: 0,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  if (query.isPending && !query.data) {
    if (!online) return <Alert type="info" showIcon message="离线时无法搜索文件内容（此前未搜索过这个关键字）" data-testid="content-hits-offline" />;
    return <Spin style={{ margin: 24 }} />;
  }
  if (query.isError && !query.data) return <Alert type="error" showIcon message="搜索文件内容失败，请稍后重试" />;
  if (items.length === 0) {
    return <Empty description={`没有文件的内容包含「${keyword}」`} data-testid="content-hits-empty" />;
  }
  return (
    <section aria-label="内容搜索结果" data-testid="content-hits" style={{ overflow: 'auto', minHeight: 0 }}>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, maxWidth: 900 }}>
        {items.map((hit) => (
          <li key={hit.id} style={{ borderBottom: '1px solid #f0f0f0' }}>
            <button
              type="button"
              onClick={() => setOpen({ hit, at: { page: hit.match.page ?? undefined, term: keyword } })}
              data-testid="content-hit"
              style={{ all: 'unset', cursor: 'pointer', display: 'block', width: '100%', padding: '10px 8px', boxSizing: 'border-box' }}
            >
              <Flex align="center" gap={8}>
                <FileKindIcon kind={displayKindOf(hit)} encrypted={hit.encrypted} />
                <span style={{ fontWeight: 600 }}>{hit.name}</span>
                {hit.match.page !== null && <Tag data-testid="content-hit-page">第 {hit.match.page} 页</Tag>}
                <FileStateTags file={hit} />
                <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12, marginInlineStart: 'auto' }}>{placeOf(hit)}</span>
              </Flex>
              <div style={{ color: 'rgba(0,0,0,0.75)', marginTop: 4, lineHeight: 1.6, wordBreak: 'break-all' }} data-testid="content-hit-snippet">
                {hit.match.snippet.map((s, i) =>
                  s.mark ? (
                    <mark key={i} style={{ background: '#ffe58f', padding: 0 }}>
                      {s.text}
                    </mark>
                  ) : (
                    <span key={i}>{s.text}</span>
                  ),
                )}
              </div>
            </button>
          </li>
        ))}
      </ul>
      {query.hasNextPage && (
        <Flex justify="center" style={{ padding: 12 }}>
          <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="content-hits-more">
            加载更多
          </Button>
        </Flex>
      )}
      {/* `at`: the page and the keyword (components/document/target.ts once the document viewer is in). */}
      <PreviewModal file={open?.hit ?? null} onClose={() => setOpen(null)} {...({ at: open?.at } as Record<string, unknown>)} />
    </section>
  );
}

function placeOf(hit: ContentHit): string {
  const root = hit.spaceName ?? '个人文件';
  return [root, ...hit.path].join(' / ');
}
