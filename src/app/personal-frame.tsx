/**
 * 个人文件 as HTML before any script: the shell's frame (header with the tenant's brand, side menu, the transfer rail) and the
 * page's own (breadcrumb, search, sort, view, the list's header, 加载中…), drawn at build time by the
 * real components with the app's desktop theme (vite.config.ts, `personalFrameHtml`, writes it into
 * personal.html; never part of the app bundle). The server writes the brand in (the system config, the
 * same for every visitor). Nothing of it belongs to a user: no names, no rows,
 * no buttons that depend on permissions — those come with the shell, which draws itself in the same
 * places (src/lib/boot-frame.ts takes the frame away in the commit that replaces the loading screen).
 *
 * The server sends personal.html for /main/file/personal, the service worker its precached copy.
 * A phone (below 768 px) gets the loading screen instead: its shell is laid out another way.
 */
import { SearchOutlined } from '@ant-design/icons';
import { Breadcrumb, ConfigProvider, Flex, Layout, theme } from 'antd';
// CommonJS is what Node loads at build time (the ES build's imports name no file extensions).
import zhCN from 'antd/locale/zh_CN';
import { createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FILE_PAGE_CATEGORY } from '../../common/api/types';
import { PERSONAL_FRAME_BRAND, PERSONAL_FRAME_LOGO } from '../../common/personal-frame';
import { BrandMarkView } from '../components/BrandMark';
import { FileSearchTools } from '../features/files/browser/FileToolbar';
import { FileTable } from '../features/files/browser/FileTable';
import { DEFAULT_SORT } from '../features/files/listing/sort-state';
import { contentStyle, headerStyle, SIDER_STYLE, SIDER_WIDTH } from '../features/layout/shell-frame';
import { appTheme } from './antd-theme';

const noop = () => undefined;

/** antd's base text style, as FeedbackProvider gives the page. */
function TextBase({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return <div style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}>{children}</div>;
}

function PersonalFrame() {
  const source = { mode: 'folder', scope: { category: FILE_PAGE_CATEGORY.personal, spaceId: null }, via: 'list', rootName: '个人文件' } as const;
  const pages = { items: [], loading: true, cached: false, hasMore: false, loadMore: noop, reload: noop, patch: noop, drop: noop };
  const handlers = { click: noop, contextMenu: noop, toggle: noop, selectAll: noop, activate: noop };
  return (
    <ConfigProvider locale={zhCN} theme={appTheme('desktop', false)} inputSearch={{ searchIcon: <SearchOutlined aria-label="搜索" title="搜索" /> }}>
      <TextBase>
        <Layout style={{ height: '100dvh' }}>
          <Layout.Header style={headerStyle(false)}>
            {/* The tenant's brand, written in by the server at each request (common/personal-frame.ts). */}
            <div style={{ flex: 1, minWidth: 0 }}>
              <BrandMarkView logo={PERSONAL_FRAME_LOGO} name={PERSONAL_FRAME_BRAND} size={30} />
            </div>
          </Layout.Header>
          <Layout style={{ minHeight: 0 }} hasSider>
            <Layout.Sider width={SIDER_WIDTH} theme="light" style={SIDER_STYLE} />
            <Layout.Content style={contentStyle(false, undefined)}>
              <Flex vertical gap={12} style={{ flex: 1, minHeight: 0, position: 'relative' }}>
                <Flex justify="space-between" align="center" gap={8} wrap="wrap">
                  <Breadcrumb items={[{ key: 'root', title: <span>个人文件</span> }]} />
                  <Flex gap={8} align="center" wrap="wrap" justify="flex-end">
                    <FileSearchTools source={source} sort={DEFAULT_SORT} onSort={noop} view="list" onView={noop} onSearch={noop} />
                  </Flex>
                </Flex>
                <div className="file-toolbar" />
                <FileTable
                  mode="folder"
                  pages={pages}
                  empty={null}
                  selectedIds={[]}
                  cursorId={null}
                  freshId={null}
                  handlers={handlers}
                  contextMenu={{}}
                  onDownload={noop}
                  downloadBlocked={() => null}
                  layoutRef={{ current: { columns: 1, pageRows: 10 } }}
                  sort={DEFAULT_SORT}
                  onSort={noop}
                />
              </Flex>
            </Layout.Content>
            {/* The transfer panel closed (its rail), as a browser that has not opened it shows it. */}
            <aside className="transfer-panel" style={{ width: 48, flex: 'none', background: '#fff', borderInlineStart: '1px solid #f0f0f0', display: 'flex', flexDirection: 'column', minHeight: 0 }} />
          </Layout>
        </Layout>
      </TextBase>
    </ConfigProvider>
  );
}

/**
 * The frame's HTML, inert: no test id or id of the app's (a test must never find the frame for the
 * page), nothing to focus or type into, hidden from assistive technology (the shell is what they read).
 */
export function personalFrameMarkup(): string {
  return renderToStaticMarkup(h(PersonalFrame))
    .replace(/ data-testid="[^"]*"/g, '')
    .replace(/ id="[^"]*"/g, '')
    .replace(/ aria-activedescendant="[^"]*"/g, '')
    .replace(/ tabindex="[^"]*"/g, '');
}
