/** The message public/sw-network-routes.js answers with clients.claim(). */
export const CLAIM_UNCONTROLLED_PAGE = 'claim-uncontrolled-page';

type WorkerLike = Pick<ServiceWorker, 'state' | 'postMessage' | 'addEventListener' | 'removeEventListener'>;
type RegistrationLike = { active: WorkerLike | null; installing: unknown; waiting: unknown };

/**
 * Asks the active service worker to take this page when nothing controls it.
 *
 * The first install claims every open page as it activates (workbox clientsClaim), but claim()
 * only reaches documents that exist at that moment: a page whose navigation was under way then
 * (a reload while the worker installs, or a second tab opening) loads from the network and stays
 * uncontrolled until its next navigation — and an uncontrolled page's lazy chunks and API answers
 * do not survive going offline. Such a page comes from the same deployment the active worker
 * precached, unless a newer worker is installing or waiting: then that one decides (it claims on a
 * first install, or waits for 刷新), so nothing is asked.
 */
export function claimIfUncontrolled(container: Pick<ServiceWorkerContainer, 'controller'>, registration: RegistrationLike | undefined): void {
  if (!registration || registration.installing || registration.waiting) return;
  const worker = registration.active;
  if (!worker || container.controller) return;
  if (worker.state === 'activated') {
    worker.postMessage({ type: CLAIM_UNCONTROLLED_PAGE });
    return;
  }
  if (worker.state !== 'activating') return;
  // Still activating: its own claim may or may not reach this page; ask again once it is done.
  const onStateChange = () => {
    if (worker.state === 'activating') return;
    worker.removeEventListener('statechange', onStateChange);
    if (worker.state === 'activated' && !container.controller) worker.postMessage({ type: CLAIM_UNCONTROLLED_PAGE });
  };
  worker.addEventListener('statechange', onStateChange);
}
