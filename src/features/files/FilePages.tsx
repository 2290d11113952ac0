import { CloudSyncOutlined, SwapOutlined } from '@ant-design/icons';
import { Alert, Segmented, Spin } from 'antd';
import { useLocation, useSearch } from 'wouter';
import { useSetAtom } from 'jotai';
import { fileListVersionAtom } from '../../lib/file-events';
import { InterceptedPanel } from './dialogs/InterceptedPanel';
import { FILE_CATEGORY, FILE_PAGE_CATEGORY, type SpaceInfo } from '../../../common/api/types';
import type { BrowserSource } from './listing/browser-source';
import { FileBrowser } from './browser/FileBrowser';
import { KEYWORD_QUERY_PARAM } from './file-locations';
import { SearchPage } from './search/SearchPage';
import { usePublicSpace } from './space-queries';
import { DesktopClientLink } from '../../components/DesktopClientLink';
import { OfflineUncached } from '../../components/OfflineUncached';
import { inDesktopShell } from '../../lib/desktop-client';
import { useOnline } from '../../lib/data/online';
import { PlaceEmptyState } from './browser/PlaceEmptyState';

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

/** 同步文件, empty: what fills it (the desktop client's sync) and how to get the client. */
const BACKUPS_EMPTY = (
  <PlaceEmptyState icon={<CloudSyncOutlined />} title="这里还没有同步的文件">
    <div>「同步文件」存放桌面客户端从电脑上同步来的文件夹：在客户端中添加同步文件夹后，其中的文件会自动上传到这里，并随电脑上的修改保持更新。</div>
    {inDesktopShell() ? <div>点击顶部的「本机同步」→「添加同步文件夹」开始同步。</div> : <DesktopClientLink />}
  </PlaceEmptyState>
);

export function BackupsPage() {
  return <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.backups, '同步文件')} title="同步文件" emptyState={BACKUPS_EMPTY} />;
}

/** 交换区, empty: what it is for, how a file crosses to the other network, and how to get the client that takes it there. */
const EXCHANGE_EMPTY = (
  <PlaceEmptyState icon={<SwapOutlined />} title="交换区暂无文件">
    <div>交换区用于在内网与外网之间传递文件。把文件上传到这里，选中后点击「提交交换检查」：通过检查的文件即可在另一网络的云盘中下载使用，未通过的会显示拦截原因。</div>
    {!inDesktopShell() && (
      <>
        <div>在另一网络中，可用网页端或桌面客户端取用通过检查的文件。</div>
        <DesktopClientLink />
      </>
    )}
  </PlaceEmptyState>
);

/** 其他: the exchange area between the internal and the public network builds (checkSwap, intercepted files). */
export function OtherFilesPage() {
  const changed = useSetAtom(fileListVersionAtom);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, gap: 12 }}>
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <InterceptedPanel onChanged={() => changed((v) => v + 1)} />
      </div>
      <FileBrowser source={folderPage(FILE_PAGE_CATEGORY.other, '交换区')} title="交换区" emptyState={EXCHANGE_EMPTY} />
    </div>
  );
}

/**
 * 共享文件: what others share with the caller (grouped by who shared it, each with its permission),
 * and the caller's own shared area (category 2) beside it.
 */
export function SharedFilesPage() {
  const [location, navigate] = useLocation();
  // The tab is in the address (a reload stays), and switching it leaves the folder open in the other.
  const tab = new URLSearchParams(useSearch()).get('tab') === 'own' ? 'own' : 'received';
  const setTab = (next: 'received' | 'own') => navigate(next === 'own' ? `${location}?tab=own` : location);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, gap: 12 }}>
      <Segmented
        value={tab}
        onChange={(v) => setTab(v as 'received' | 'own')}
        options={[
          { value: 'received', label: <span data-testid="share-tab-received">共享给我的</span> },
          { value: 'own', label: <span data-testid="share-tab-own">我的共享区</span> },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {tab === 'received' ? (
        <FileBrowser key="received" source={folderPage(FILE_PAGE_CATEGORY.share, '共享给我的', 'share')} title="共享文件" />
      ) : (
        <FileBrowser key="own" source={folderPage(FILE_PAGE_CATEGORY.share, '我的共享区')} title="共享文件" />
      )}
    </div>
  );
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
  const online = useOnline();
  const space = query.data ?? null;
  if (!space && !online) return <OfflineUncached />;
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
