import { Button } from 'antd';
import { startTransition, useEffect, useState, type ComponentType } from 'react';
import { ChunkLoadError, loadWithTimeout } from '../lib/chunk-timeout';
import { reloadOnceForNewDeployment } from '../lib/deploy-reload';
import { failedModuleUrl, moduleInChunk, reimportFailedModule } from '../lib/module-retry';
import { PageLoading } from './PageLoading';
import { StatusResult } from './StatusResult';

/** The screen of a page chunk that failed or timed out, with a retry. */
function ChunkFailure({ error, onRetry }: { error: ChunkLoadError; onRetry: () => void }) {
  return (
    <StatusResult
      status="warning"
      title={error.timedOut ? '页面加载超时' : '页面加载失败'}
      subTitle={error.timedOut ? '网络较慢或已断开，页面在 120 秒内未能加载完成。请检查网络后重试。' : '页面资源未能加载，可能是网络中断或系统已更新。请重试或刷新页面。'}
      extra={
        <div style={{ display: 'inline-flex', gap: 8 }}>
          <Button type="primary" onClick={onRetry} data-testid="chunk-retry">
            重试
          </Button>
          <Button onClick={() => window.location.reload()}>刷新页面</Button>
        </div>
      }
      data-testid="chunk-load-failed"
    />
  );
}

/**
 * A route page loaded as its own chunk, failing after 120 s with a retry screen. `load` imports the
 * chunk, `pick` takes the page from it. A retry imports it again, under a new URL when the failure
 * named the chunk's URL (lib/module-retry.ts: the browser remembers a failed import).
 *
 * Not React.lazy: a lazy component suspends on its first render even when its module is already there,
 * and once a Suspense fallback has shown, React holds the content back until 300 ms after it (its
 * reveal throttle) — on a direct load of 个人文件 ~250 ms of nothing but the spinner. Here the page
 * shows the loading screen until the chunk is there, then renders it (in a transition, in slices); a
 * chunk already loaded (`preload()` at boot, or an earlier visit) renders at once.
 */
export function lazyPage<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, timeoutMs?: number): PreloadablePage<P> {
  let failedUrl: string | null = null;
  let loaded: ComponentType<P> | null = null;
  /** The load under way, shared by every mount (and preload) until it fails. */
  let loading: Promise<ComponentType<P>> | null = null;
  /** `retry`: the user asked again after a failure: the failed URL is imported anew. */
  const loadPage = (retry = false): Promise<ComponentType<P>> => {
    if (loaded) return Promise.resolve(loaded);
    const reimport = (url: string) => reimportFailedModule<unknown>(url).then((chunk) => moduleInChunk<M>(chunk, (m) => pick(m) != null));
    loading ??= loadWithTimeout(() => (retry && failedUrl ? reimport(failedUrl) : load()), timeoutMs).then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        loading = null;
        failedUrl = failedModuleUrl(error instanceof ChunkLoadError ? error.cause : error) ?? failedUrl;
        throw error;
      },
    );
    return loading;
  };

  function LazyPage(props: P) {
    const [state, setState] = useState<{ Page: ComponentType<P> | null; error: ChunkLoadError | null; attempt: number }>(() => ({ Page: loaded, error: null, attempt: 0 }));
    const { Page, error, attempt } = state;
    useEffect(() => {
      if (Page || error) return;
      let alive = true;
      loadPage(attempt > 0).then(
        (page) => alive && startTransition(() => setState((s) => ({ ...s, Page: page }))),
        (e: unknown) => {
          if (!alive) return;
          const failure = e instanceof ChunkLoadError ? e : new ChunkLoadError('page chunk failed to load', false, { cause: e });
          console.warn('page chunk failed', failure);
          // Not a slow network: most likely a deployment replaced the chunk. Reload onto the new version once.
          if (!failure.timedOut) {
            reloadOnceForNewDeployment({ storage: window.sessionStorage, online: navigator.onLine, now: Date.now(), reload: () => window.location.reload() });
          }
          setState((s) => ({ ...s, error: failure }));
        },
      );
      return () => {
        alive = false;
      };
    }, [Page, error, attempt]);

    if (Page) return <Page {...props} />;
    if (error) return <ChunkFailure error={error} onRetry={() => setState((s) => ({ Page: null, error: null, attempt: s.attempt + 1 }))} />;
    return <PageLoading />;
  }
  /** Loads the chunk now (a page load straight into this route); never rejects (a failure shows when rendered). */
  LazyPage.preload = (): Promise<void> => loadPage().then(noop, noop);
  return LazyPage;
}

const noop = (): void => undefined;

/** A lazily loaded page that can be asked to load before it renders. */
export type PreloadablePage<P extends object> = ComponentType<P> & { preload(): Promise<void> };
