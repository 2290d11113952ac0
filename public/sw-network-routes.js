/*
 * Imported by the service worker (vite.config.ts, workbox importScripts). Requests that are not GETs
 * (chunk uploads, every API write) skip the service worker entirely through Chromium's static
 * routing: its fetch handler has nothing to do for them, and being woken for each one cost ~28 ms per
 * small file and ~0.4 CPU-s per GiB of chunk uploads (tests/bench/PROFILE-browser-upload.md).
 * Browsers without static routing keep going through the fetch handler, which lets them pass.
 */
/* global self, console */
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  const rules = ['POST', 'PUT', 'DELETE', 'PATCH'].map((requestMethod) => ({ condition: { requestMethod }, source: 'network' }));
  event.waitUntil(event.addRoutes(rules).catch((error) => console.warn('service worker routes not added', error)));
});

/*
 * A page that loaded while the first install was activating is not reached by its clients.claim()
 * and asks again (src/features/pwa/claim-uncontrolled-page.ts, CLAIM_UNCONTROLLED_PAGE).
 */
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'claim-uncontrolled-page') event.waitUntil(self.clients.claim());
});
