import { Flex, Input } from 'antd';
import { useLocation } from 'wouter';
import type { FolderScope } from './files-api';
import { FileBrowser } from './FileBrowser';
import { KEYWORD_QUERY_PARAM } from './file-locations';

/**
 * 搜索 (one category or space, `GET /api/v2/file/keyword/list`) and 统一搜索 (every space the user may
 * see). The keyword lives in the URL, so a search can be reloaded and shared.
 */
export function SearchPage({ unified, keyword, scope }: { unified: boolean; keyword: string; scope?: FolderScope }) {
  const [location, navigate] = useLocation();
  const search = (value: string) => {
    const params = new URLSearchParams(window.location.search);
    params.set(KEYWORD_QUERY_PARAM, value.trim());
    navigate(`${location}?${params.toString()}`);
  };
  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="search-page">
      <Input.Search
        key={keyword}
        defaultValue={keyword}
        placeholder={unified ? '在所有空间中搜索文件名' : '搜索文件名'}
        enterButton="搜索"
        allowClear
        onSearch={(v) => v.trim() && search(v)}
        data-testid="search-input"
        style={{ maxWidth: 480 }}
      />
      {keyword.trim() ? (
        <FileBrowser source={{ mode: 'search', keyword, unified, scope }} title={`${unified ? '统一搜索' : '搜索'}「${keyword}」的结果`} />
      ) : (
        <div style={{ color: '#8c8c8c' }}>请输入关键字</div>
      )}
    </Flex>
  );
}
