import { startTransition, useEffect, useState, type ComponentType } from 'react';
import { PageLoading } from './PageLoading';

const noop = (): void => undefined;

/**
 * A part loaded as its own chunk, for the link pages' lean entry: like LazyPage (no Suspense, so a
 * chunk already there renders at once), but its failure screen is plain HTML — LazyPage's uses antd,
 * which the link's code page does not load.
 */
export function plainLazy<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): ComponentType<P> & { preload(): Promise<void> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const get = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));

  function PlainLazy(props: P) {
    const [state, setState] = useState<{ Part: ComponentType<P> | null; failed: boolean }>(() => ({ Part: loaded, failed: false }));
    useEffect(() => {
      if (state.Part || state.failed) return;
      let alive = true;
      get().then(
        (Part) => alive && startTransition(() => setState({ Part, failed: false })),
        (e: unknown) => {
          console.warn('chunk failed', e);
          if (alive) setState({ Part: null, failed: true });
        },
      );
      return () => {
        alive = false;
      };
    }, [state]);
    const { Part } = state;
    if (Part) return <Part {...props} />;
    if (state.failed) {
      return (
        <div role="alert" data-testid="chunk-load-failed" style={{ padding: 24, textAlign: 'center', color: 'rgba(0,0,0,0.62)' }}>
          页面加载失败，可能是网络中断或系统已更新。
          <button type="button" onClick={() => window.location.reload()} style={{ marginLeft: 8, color: '#0958d9', background: 'none', border: 0, cursor: 'pointer', font: 'inherit', padding: 0 }}>
            刷新页面
          </button>
        </div>
      );
    }
    return <PageLoading />;
  }
  PlainLazy.preload = (): Promise<void> => get().then(noop, noop);
  return PlainLazy;
}
