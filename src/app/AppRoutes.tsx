import { Redirect, Route, Switch } from 'wouter';
import { InitialPswChangePage, LoginPage } from '../features/auth';
import { DownloadExceededPage, NotFoundPage, PermissionDeniedPage, StandalonePlaceholderPage } from '../features/status';
import { HomeRedirect } from './HomeRedirect';
import { MainShell } from './MainShell';
import { RouteGuard } from './RouteGuard';
import { STANDALONE_PAGES } from './route-table';

export function AppRoutes() {
  return (
    <RouteGuard>
      <Switch>
        <Route path="/" component={HomeRedirect} />
        <Route path="/login" component={LoginPage} />
        <Route path="/login/:id" component={LoginPage} />
        <Route path="/initialPswChange" component={InitialPswChangePage} />
        <Route path="/error" component={NotFoundPage} />
        <Route path="/permissionDenied" component={PermissionDeniedPage} />
        <Route path="/downloadExceeded" component={DownloadExceededPage} />
        {Object.entries(STANDALONE_PAGES).map(([path, title]) => (
          <Route key={path} path={path}>
            <StandalonePlaceholderPage title={title} />
          </Route>
        ))}
        <Route path="/main" component={MainShell} />
        <Route path="/main/*" component={MainShell} />
        <Route>
          <Redirect to="/error" replace />
        </Route>
      </Switch>
    </RouteGuard>
  );
}
