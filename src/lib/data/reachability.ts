/**
 * Whether the server can be reached, as the data layer's online flag (TanStack Query's onlineManager)
 * sees it. The browser's own flag is not enough: navigator.onLine stays true on a Wi-Fi without a
 * way out, behind a captive portal, when the server is down, and (in Chromium's network emulation)
 * after a reload made offline. So every API call reports: a fetch that fails at the network level turns
 * the app offline (cached data, offline banner, outbox), and a probe brings it back as soon as the
 * server answers anything at all.
 */
import { onlineManager } from '@tanstack/react-query';
import { API } from '../../../common/api/paths';

/** Probe intervals while unreachable: quick at first (a blip), then every 30 s. */
const PROBE_DELAYS_MS = [2_000, 5_000, 10_000, 30_000];

let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeAttempt = 0;

/** Any HTTP answer from the server: it is reachable. */
export function noteServerAnswered(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeAttempt = 0;
  if (!onlineManager.isOnline()) onlineManager.setOnline(true);
}

/** A request failed before any answer (no network, server gone): offline until a probe gets through. */
export function noteServerUnreachable(): void {
  if (onlineManager.isOnline()) onlineManager.setOnline(false);
  scheduleProbe();
}

function scheduleProbe(): void {
  if (probeTimer || typeof window === 'undefined') return;
  const delay = PROBE_DELAYS_MS[Math.min(probeAttempt, PROBE_DELAYS_MS.length - 1)]!;
  probeAttempt++;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    void probe();
  }, delay);
}

/** One cheap public GET the service worker never answers (it leaves /api to the network). */
async function probe(): Promise<void> {
  try {
    await fetch(API.systemConfig, { cache: 'no-store', credentials: 'omit' });
    noteServerAnswered();
  } catch {
    scheduleProbe();
  }
}

/** fetch that reports reachability; a request the caller aborted says nothing about the network. */
export async function reachabilityFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    const response = await fetch(input, init);
    noteServerAnswered();
    return response;
  } catch (error) {
    if (!init?.signal?.aborted) noteServerUnreachable();
    throw error;
  }
}

/** The browser says the network is back: check at once rather than at the next probe. */
export function watchBrowserOnline(): () => void {
  const onOnline = () => {
    if (probeTimer) clearTimeout(probeTimer);
    probeTimer = null;
    void probe();
  };
  window.addEventListener('online', onOnline);
  return () => window.removeEventListener('online', onOnline);
}
