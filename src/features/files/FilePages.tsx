import { Alert, Spin } from 'antd';
import { useSearch } from 'wouter';
import { FILE_CATEGORY, FILE_PAGE_CATEGORY, type SpaceInfo } from '../../../common/api/types';
import type { BrowserSource } from './browser-source';
import { FileBrowser } from './FileBrowser';
import { KEYWORD_QUERY_PARAM } from './file-locations';
import { SearchPage } from './SearchPage';
import { usePublicSpace } from './space-queries';

/** The spec §2 pages under /main/file: each is the one FileBrowser, configured. */

const folderPage = (category: number, rootName: string, via: 'list' | 'share' = 'list'): BrowserSource => ({
  mode: 'folder',
  scope: { category, spaceId: null },
  via,
  rootName,
});

export function PersonalFilesPage() {
  return <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.personal, '个人文件')} title="个人文件" />;
}

export function BackupsPage() {
  return <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.backups, '同步文件')} title="同步文件" />;
}

export function OtherFilesPage() {
  return <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.other, '交换区')} title="交换区" />;
}

export function SharedFilesPage() {
  return <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.share, '共享文件', 'share')} title="共享文件" />;
}

export function FavoritePage() {
  return <FileBrowser source={{ mode: 'favorite' }} title="我的收藏" />;
}

export function RecyclePage() {
  return <FileBrowser source={{ mode: 'recycle' }} title="回收站" />;
}

export function KeywordSearchPage() {
  const params = new URLSearchParams(useSearch());
  const spaceId = params.get('spaceId');
  const category = Number(params.get('category') ?? FILE_CATEGORY.personal) || FILE_CATEGORY.personal;
  return <SearchPage unified={false} keyword={params.get(KEYWORD_QUERY_PARAM) ?? ''} scope={{ category, spaceId }} />;
}

export function UnifiedSearchPage() {
  const params = new URLSearchParams(useSearch());
  return <SearchPage unified keyword={params.get(KEYWORD_QUERY_PARAM) ?? ''} />;
}

/** 公共空间: the tenant's one public space (everyone may read and write; changes only to own entries). */
export function PublicSpacePage() {
  const query = usePublicSpace();
  const space = query.data ?? null;
  if (!space && query.isError) return <Alert type="error" showIcon message="无法打开公共空间" />;
  if (!space) return <Spin />;
  return <SpaceBrowser space={space} />;
}

/** A group or the public space as a folder tree. */
export function SpaceBrowser({ space }: { space: SpaceInfo }) {
  const title = space.kind === 'public' ? '公共空间' : space.name;
  return (
    <FileBrowser
      source={{ mode: 'folder', scope: { category: FILE_CATEGORY.personal, spaceId: space.id }, via: 'list', rootName: title, space: { id: space.id, rootId: space.rootId, role: space.myRole } }}
      title={title}
    />
  );
}
