import { Button } from 'antd';
import { Component, lazy, Suspense, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { ChunkLoadError, loadWithTimeout } from '../lib/chunk-timeout';
import { reloadOnceForNewDeployment } from '../lib/deploy-reload';
import { failedModuleUrl, reimportFailedModule } from '../lib/module-retry';
import { PageLoading } from './PageLoading';
import { StatusResult } from './StatusResult';

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a page chunk that failed or timed out and offers to try again; other errors go on up. */
class ChunkErrorBoundary extends Component<BoundaryProps, { error: ChunkLoadError | null }> {
  override state: { error: ChunkLoadError | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: ChunkLoadError | null } {
    if (error instanceof ChunkLoadError) return { error };
    throw error;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('page chunk failed', error, info.componentStack);
    // Not a slow network: most likely a deployment replaced the chunk. Reload onto the new version once.
    if (error instanceof ChunkLoadError && !error.timedOut) {
      reloadOnceForNewDeployment({ storage: window.sessionStorage, online: navigator.onLine, now: Date.now(), reload: () => window.location.reload() });
    }
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <StatusResult
        status="warning"
        title={error.timedOut ? '页面加载超时' : '页面加载失败'}
        subTitle={error.timedOut ? '网络较慢或已断开，页面在 120 秒内未能加载完成。请检查网络后重试。' : '页面资源未能加载，可能是网络中断或系统已更新。请重试或刷新页面。'}
        extra={
          <div style={{ display: 'inline-flex', gap: 8 }}>
            <Button type="primary" onClick={this.props.onRetry} data-testid="chunk-retry">
              重试
            </Button>
            <Button onClick={() => window.location.reload()}>刷新页面</Button>
          </div>
        }
        data-testid="chunk-load-failed"
      />
    );
  }
}

/**
 * A route page loaded as its own chunk (React.lazy), failing after 120 s with a retry screen.
 * `load` imports the chunk, `pick` takes the page from it. Retry builds a fresh lazy component
 * (React.lazy remembers a rejected load forever) and, when the failure named the chunk's URL,
 * imports it again under a new URL (lib/module-retry.ts: the browser remembers the failed import too).
 */
export function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, timeoutMs?: number): ComponentType<P> {
  let failedUrl: string | null = null;
  const importChunk = () => (failedUrl ? reimportFailedModule<M>(failedUrl) : load());
  const make = () =>
    lazy(() =>
      loadWithTimeout(importChunk, timeoutMs).then(
        (module) => ({ default: pick(module) }),
        (error: unknown) => {
          failedUrl = failedModuleUrl(error instanceof ChunkLoadError ? error.cause : error) ?? failedUrl;
          throw error;
        },
      ),
    );
  let first: ReturnType<typeof make> | null = null;
  function LazyPage(props: P) {
    // Shared by every mount until a retry, so a page revisited does not load its chunk again.
    const [{ Page, attempt }, setState] = useState(() => ({ Page: (first ??= make()), attempt: 0 }));
    const retry = () => setState((s) => ({ Page: (first = make()), attempt: s.attempt + 1 }));
    return (
      <ChunkErrorBoundary key={attempt} onRetry={retry}>
        <Suspense fallback={<PageLoading />}>
          <Page {...props} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  return LazyPage;
}
