import { Redirect, Route, Switch } from 'wouter';
import { lazyPage } from '../components/LazyPage';
import { DownloadExceededPage, NotFoundPage, PermissionDeniedPage, StandalonePlaceholderPage } from '../features/status';
import { HomeRedirect } from './HomeRedirect';
import { RouteGuard } from './RouteGuard';
import { SHARE_LINK_PAGES, STANDALONE_PAGES } from './route-table';
import { DownloadMobileRoute, ShareLinkRoute } from './ShareLinkRoute';
import { MainShellPage } from './main-shell-page';

// Each page group is its own chunk (spec §8: a chunk that does not load within 120 s shows a retry screen).
// The status pages stay in the entry chunk: they are what a failure lands on.
const LoginPage = lazyPage(() => import('../features/auth/login'), (m) => m.LoginPage);
const InitialPswChangePage = lazyPage(() => import('../features/auth'), (m) => m.InitialPswChangePage);
const PasswordChangePage = lazyPage(() => import('../features/auth'), (m) => m.PasswordChangePage);

export function AppRoutes() {
  return (
    <RouteGuard>
      <Switch>
        <Route path="/" component={HomeRedirect} />
        <Route path="/login" component={LoginPage} />
        <Route path="/login/:id" component={LoginPage} />
        <Route path="/initialPswChange" component={InitialPswChangePage} />
        <Route path="/passwordChage" component={PasswordChangePage} />
        <Route path="/error" component={NotFoundPage} />
        <Route path="/permissionDenied" component={PermissionDeniedPage} />
        <Route path="/downloadExceeded" component={DownloadExceededPage} />
        {Object.entries(STANDALONE_PAGES).map(([path, title]) => (
          <Route key={path} path={path}>
            <StandalonePlaceholderPage title={title} />
          </Route>
        ))}
        <Route path="/downLoadM" nest>
          <DownloadMobileRoute />
        </Route>
        {Object.entries(SHARE_LINK_PAGES).map(([path, title]) => (
          <Route key={path} path={path} nest>
            <ShareLinkRoute title={title} page={path === '/shareLink' ? 'shareLink' : 'openShareLink'} />
          </Route>
        ))}
        <Route path="/main" component={MainShellPage} />
        <Route path="/main/*" component={MainShellPage} />
        <Route>
          <Redirect to="/error" replace />
        </Route>
      </Switch>
    </RouteGuard>
  );
}
