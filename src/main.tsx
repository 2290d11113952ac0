import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

// Which build this page runs (support, and the update test): a new value per deployment.
document.documentElement.dataset.build = import.meta.env.VITE_BUILD_ID ?? '';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
