import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { resolveNetworkEnv, NETWORK_ENV_VARIABLE } from './common/api/client-env';

/** Where `npm run dev:web` forwards API calls (the server started by `npm run dev:server`). */
const DEV_API_TARGET = process.env.DEV_API_TARGET ?? 'http://localhost:8080';

/**
 * Build-time constants of the web app: which network build it is (client type 3 or 4, the
 * network-environment header, the beian footer) and the ICP filing number the public build shows.
 */
export function buildDefines(mode: string, env: Record<string, string | undefined>): Record<string, string> {
  return {
    'import.meta.env.VITE_NETWORK_ENV': JSON.stringify(resolveNetworkEnv(mode, env[NETWORK_ENV_VARIABLE])),
    'import.meta.env.VITE_BEIAN_NUMBER': JSON.stringify(env.BEIAN_NUMBER ?? ''),
  };
}

export default defineConfig(({ mode }) => ({
  define: buildDefines(mode, process.env),
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false, // src/pwa.ts registers it, so the app decides when
      includeAssets: ['favicon.svg', 'icons/*.png'],
      manifest: {
        name: '企业云盘',
        short_name: '云盘',
        description: '企业云盘：个人文件、共享文件、同步备份',
        lang: 'zh-CN',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#1677ff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell (HTML, JS, CSS, workers, icons) is precached; API answers never are.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,wasm}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/spacex\//],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  worker: { format: 'es' },
  server: {
    // Keep the browser's Host so the server's Origin check (writes must come from the same host) holds.
    proxy: {
      '/api': { target: DEV_API_TARGET, changeOrigin: false },
      '/spacex': { target: DEV_API_TARGET, changeOrigin: false },
    },
  },
  build: {
    // The server serves STATIC_DIR: building there lets `npm start` run several instances side by side.
    outDir: process.env.STATIC_DIR || 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2048,
  },
}));
