import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { prefetchAtBoot } from './app/boot-prefetch';

// Which build this page runs (support, and the update test): a new value per deployment.
document.documentElement.dataset.build = import.meta.env.VITE_BUILD_ID ?? '';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

prefetchAtBoot(window.location.pathname, window.location.search);

const root = createRoot(container);
// A transition: the first render is done in slices, so the page answers input while it mounts.
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
