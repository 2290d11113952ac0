import { lazyPage } from '../components/LazyPage';

/** Everything under /main, as its own chunk: loaded at boot for a page opened straight into /main (boot-prefetch). */
export const MainShellPage = lazyPage(() => import('./MainShell'), (m) => m.MainShell);
