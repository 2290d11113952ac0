import { Redirect, Route, Switch } from 'wouter';
import { lazyPage } from '../components/LazyPage';
import { UnderConstruction } from '../components/UnderConstruction';
import { PersonalFilesPage } from '../features/files';
import { MainLayout } from '../features/layout';
import { TransferPanel } from '../features/transfer';
import { MAIN_DEFAULTS, MAIN_PAGES } from './route-table';

const UserInfoPage = lazyPage(() => import('../features/user-centre').then((m) => m.UserInfoPage));
const AccountSafePage = lazyPage(() => import('../features/user-centre').then((m) => m.AccountSafePage));
const UserListPage = lazyPage(() => import('../features/system-users').then((m) => m.UserListPage));

const BUILT_PAGES = new Set(['/main/file/personal', '/main/user/userInfo', '/main/user/accountSafe', '/main/system/user/list']);

/** Everything under /main: the layout with the transfer panel, and the §2 pages. */
export function MainShell() {
  return (
    <MainLayout aside={<TransferPanel />}>
      <Switch>
        <Route path="/main/file/personal" component={PersonalFilesPage} />
        <Route path="/main/user/userInfo" component={UserInfoPage} />
        <Route path="/main/user/accountSafe" component={AccountSafePage} />
        <Route path="/main/system/user/list" component={UserListPage} />
        {Object.entries(MAIN_PAGES)
          .filter(([path]) => !BUILT_PAGES.has(path))
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
    </MainLayout>
  );
}
