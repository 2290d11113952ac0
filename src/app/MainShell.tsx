import { Redirect, Route, Switch } from 'wouter';
import { lazyWhenOpen } from '../components/lazy-when-open';
import { lazyPage } from '../components/LazyPage';
import { UnderConstruction } from '../components/UnderConstruction';
import {
  BackupsPage,
  FavoritePage,
  FileBrowserSlots,
  type FileBrowserParts,
  KeywordSearchPage,
  OtherFilesPage,
  PersonalFilesPage,
  PublicSpacePage,
  RecyclePage,
  SharedFilesPage,
  UnifiedSearchPage,
} from '../features/files';
import { GestureLockGate } from '../features/gesture-lock';
import { MainLayout } from '../features/layout';
import { TransferBadgeButton, TransferPanel } from '../features/transfer';
import { DesktopSyncButton } from '../features/sync';
import { AccountGate } from './AccountGate';
import { MAIN_DEFAULTS, MAIN_PAGES } from './route-table';

const UserInfoPage = lazyPage(() => import('../features/user-centre'), (m) => m.UserInfoPage);
const AccountSafePage = lazyPage(() => import('../features/user-centre'), (m) => m.AccountSafePage);
// Its own chunk: the group list is antd's Table, which the personal files page no longer loads.
const GroupPage = lazyPage(() => import('../features/files/groups/GroupPage'), (m) => m.GroupPage);
const UserListPage = lazyPage(() => import('../features/system-users'), (m) => m.UserListPage);
const ActionLogPage = lazyPage(() => import('../features/action-log'), (m) => m.ActionLogPage);
const SystemConfigPage = lazyPage(() => import('../features/system-config'), (m) => m.SystemConfigPage);
const UserFormPage = lazyPage(() => import('../features/system-users'), (m) => m.UserFormPage);
const BatchAddPage = lazyPage(() => import('../features/system-users'), (m) => m.BatchAddPage);
const DepartmentPage = lazyPage(() => import('../features/system-departments'), (m) => m.DepartmentPage);
const AddressListPage = lazyPage(() => import('../features/address-list'), (m) => m.AddressListPage);
const MySharePage = lazyPage(() => import('../features/sharing'), (m) => m.MySharePage);
const MyApplyPage = lazyPage(() => import('../features/sharing'), (m) => m.MyApplyPage);
const DealApplyPage = lazyPage(() => import('../features/sharing'), (m) => m.DealApplyPage);
const FileSecurityPage = lazyPage(() => import('../features/file-security'), (m) => m.FileSecurityPage);
const FileNoticePage = lazyPage(() => import('../features/notices'), (m) => m.FileNoticePage);
const SystemNoticePage = lazyPage(() => import('../features/notices'), (m) => m.SystemNoticePage);
const NoticeManagePage = lazyPage(() => import('../features/notices'), (m) => m.NoticeManagePage);
// 工作台 and 统计报表 load ECharts: their own chunk, fetched only when one of them opens.
const DeskPage = lazyPage(() => import('../features/system-reports'), (m) => m.DeskPage);
const ReportPage = lazyPage(() => import('../features/system-reports'), (m) => m.ReportPage);

// The file browser's 分享 is the sharing feature's dialog (features don't import each other): handed in
// here, and loaded the first time it opens.
const FILE_BROWSER_PARTS: FileBrowserParts = {
  ShareDialog: lazyWhenOpen(() => import('../features/sharing/ShareDialog').then((m) => m.ShareDialog), (p) => p.entries !== null),
};

/** The built §2 pages; every other page of the route table shows the under-construction notice. */
const BUILT_PAGES: Record<string, React.ComponentType> = {
  '/main/file/personal': PersonalFilesPage,
  '/main/file/backups': BackupsPage,
  '/main/file/favorite': FavoritePage,
  '/main/file/other': OtherFilesPage,
  '/main/file/recycle': RecyclePage,
  '/main/file/publicSpace': PublicSpacePage,
  '/main/file/share': SharedFilesPage,
  '/main/file/search': KeywordSearchPage,
  '/main/file/unifiedSearch': UnifiedSearchPage,
  '/main/group': GroupPage,
  '/main/user/userInfo': UserInfoPage,
  '/main/user/accountSafe': AccountSafePage,
  '/main/system/user/list': UserListPage,
  '/main/system/actionLog': ActionLogPage,
  '/main/system/systemConfig': SystemConfigPage,
  '/main/system/user/add': UserFormPage,
  '/main/system/user/edit': UserFormPage,
  '/main/system/user/batchAdd': BatchAddPage,
  '/main/system/department': DepartmentPage,
  '/main/addressList': AddressListPage,
  '/main/safe/myShare': MySharePage,
  '/main/safe/myApply': MyApplyPage,
  '/main/safe/dealApply': DealApplyPage,
  '/main/system/fileSecurity': FileSecurityPage,
  '/main/notice/fileNotice': FileNoticePage,
  '/main/notice/systemNotice': SystemNoticePage,
  '/main/system/notice': NoticeManagePage,
  '/main/system/desk': DeskPage,
  '/main/system/reportForm': ReportPage,
};

/** Everything under /main: the layout with the transfer panel, and the §2 pages. */
export function MainShell() {
  return (
    <AccountGate>
    <GestureLockGate>
    <MainLayout aside={<TransferPanel />} asideButton={<TransferBadgeButton />} headerExtra={<DesktopSyncButton />}>
      <FileBrowserSlots parts={FILE_BROWSER_PARTS}>
      <Switch>
        {Object.entries(BUILT_PAGES).map(([path, Page]) => (
          <Route key={path} path={path}>
            {/* keyed by path: switching pages starts a fresh browser (selection, sort, dialogs) */}
            <Page key={path} />
          </Route>
        ))}
        {Object.entries(MAIN_PAGES)
          .filter(([path]) => !(path in BUILT_PAGES))
          .map(([path, title]) => (
            <Route key={path} path={path}>
              <UnderConstruction title={title} />
            </Route>
          ))}
        {Object.entries(MAIN_DEFAULTS).map(([path, to]) => (
          <Route key={path} path={path}>
            <Redirect to={to} replace />
          </Route>
        ))}
        <Route>
          <Redirect to="/error" replace />
        </Route>
      </Switch>
      </FileBrowserSlots>
    </MainLayout>
    </GestureLockGate>
    </AccountGate>
  );
}
