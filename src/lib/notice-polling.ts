/**
 * Registry of notice pollers. Nothing polls yet; whoever starts polling registers its stop function
 * here, and the API client stops them all when the server ends the session (spec §8).
 */
type Stop = () => void;

const pollers = new Set<Stop>();

/** Registers a poller's stop function; returns an unregister function. */
export function registerNoticePoller(stop: Stop): () => void {
  pollers.add(stop);
  return () => {
    pollers.delete(stop);
  };
}

export function stopNoticePolling(): void {
  for (const stop of [...pollers]) {
    pollers.delete(stop);
    stop();
  }
}
