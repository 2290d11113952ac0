import { ClockCircleOutlined, CloseOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Segmented } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useCurrentUser } from '../../../lib/current-user';
import { useMenuQuery } from '../../../lib/data/queries';
import type { FolderScope } from '../files-api';
import { FileBrowser } from '../browser/FileBrowser';
import { ContentHits } from './ContentHits';
import { forgetSearches, recentSearches, rememberSearch } from './recent-searches';
import { currentScopeKey, searchScopes } from './search-scopes';
import { useGroups, usePublicSpace } from '../space-queries';

/**
 * 搜索 (one category or space, `GET /api/v2/file/keyword/list`) and 统一搜索 (every space the user may
 * see). The keyword lives in the URL, so a search can be reloaded and shared. Above the results the
 * scopes (全部, each category and space of the menu, each group) switch where to look; before
 * anything is typed, the user's recent searches on this browser are one click away. 统一搜索 shows
 * its hits in two groups: 文件名 (names) and 内容 (text inside files; `?in=content` in the URL).
 */
/** `?in=content`: 统一搜索 shows its 内容 group. */
const CONTENT_QUERY_PARAM = 'in';

export function SearchPage({ unified, keyword, scope }: { unified: boolean; keyword: string; scope?: FolderScope }) {
  const [, navigate] = useLocation();
  const user = useCurrentUser();
  const userId = user?.id ?? '';
  const menu = useMenuQuery().data ?? null;
  const publicSpace = usePublicSpace().data ?? null;
  const groups = useGroups().data ?? null;
  const scopes = useMemo(() => searchScopes(menu, publicSpace, groups ?? []), [menu, publicSpace, groups]);
  const activeKey = currentScopeKey(unified, scope);
  const active = scopes.find((s) => s.key === activeKey) ?? scopes[0]!;
  const [recent, setRecent] = useState<string[]>([]);
  const word = keyword.trim();
  const query = useSearch();
  const inContent = unified && new URLSearchParams(query).get(CONTENT_QUERY_PARAM) === 'content';

  useEffect(() => {
    if (!userId) return;
    setRecent(word ? rememberSearch(userId, word) : recentSearches(userId));
  }, [userId, word]);

  const withGroup = (url: string, content: boolean) => (content ? `${url}${url.includes('?') ? '&' : '?'}${CONTENT_QUERY_PARAM}=content` : url);
  const search = (value: string) => {
    const v = value.trim();
    if (v) navigate(withGroup(active.url(v), inContent && active.key === 'all'));
  };

  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="search-page">
      <Input.Search
        key={keyword}
        defaultValue={keyword}
        placeholder={active.key === 'all' ? '在所有空间中搜索文件名和文件内容' : `在「${active.label}」中搜索文件名`}
        aria-label="搜索文件名"
        enterButton="搜索"
        allowClear
        autoFocus={!word}
        onSearch={(v) => search(v)}
        data-testid="search-input"
        style={{ maxWidth: 560 }}
      />
      <Flex gap={8} wrap="wrap" align="center" role="group" aria-label="搜索范围" data-testid="search-scopes">
        <span style={{ color: 'rgba(0,0,0,0.65)' }}>范围：</span>
        {scopes.map((s) => (
          <Button
            key={s.key}
            size="small"
            type={s.key === active.key ? 'primary' : 'default'}
            aria-pressed={s.key === active.key}
            onClick={() => navigate(s.url(word))}
            data-testid={`search-scope-${s.key}`}
          >
            {s.label}
          </Button>
        ))}
      </Flex>
      {word && unified && (
        <Segmented
          value={inContent ? 'content' : 'name'}
          onChange={(v) => navigate(withGroup(active.url(word), v === 'content'), { replace: true })}
          options={[
            { label: '文件名', value: 'name' },
            { label: '内容', value: 'content' },
          ]}
          aria-label="搜索结果分组"
          data-testid="search-group"
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      {word && inContent ? (
        <ContentHits keyword={word} />
      ) : word ? (
        <FileBrowser source={{ mode: 'search', keyword, unified, scope }} title={`在「${active.label}」中搜索「${keyword}」的结果`} />
      ) : (
        <RecentSearches
          recent={recent}
          onPick={(k) => search(k)}
          onForget={(k) => setRecent(forgetSearches(userId, k))}
          onClear={() => setRecent(forgetSearches(userId))}
        />
      )}
    </Flex>
  );
}

function RecentSearches({ recent, onPick, onForget, onClear }: { recent: string[]; onPick: (k: string) => void; onForget: (k: string) => void; onClear: () => void }) {
  if (recent.length === 0) {
    return (
      <div style={{ color: 'rgba(0,0,0,0.6)', padding: '24px 0' }} data-testid="search-empty">
        <SearchOutlined style={{ marginInlineEnd: 8 }} />
        输入文件名的一部分即可搜索，例如「报告」或「.pdf」
      </div>
    );
  }
  return (
    <section aria-labelledby="recent-searches-title" data-testid="recent-searches" style={{ maxWidth: 560 }}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <h2 id="recent-searches-title" style={{ fontSize: 14, fontWeight: 600, margin: 0 }}>
          最近搜索
        </h2>
        <Button type="link" size="small" onClick={onClear} data-testid="recent-searches-clear">
          清除全部
        </Button>
      </Flex>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {recent.map((k) => (
          <li key={k} style={{ display: 'flex', alignItems: 'center', gap: 8, borderBottom: '1px solid #f0f0f0' }}>
            <ClockCircleOutlined style={{ color: 'rgba(0,0,0,0.45)' }} aria-hidden />
            <Button type="text" onClick={() => onPick(k)} style={{ flex: 1, textAlign: 'start', justifyContent: 'flex-start' }} data-testid="recent-search">
              {k}
            </Button>
            <Button type="text" size="small" icon={<CloseOutlined />} aria-label={`删除搜索记录：${k}`} title="删除这条记录" onClick={() => onForget(k)} />
          </li>
        ))}
      </ul>
    </section>
  );
}
