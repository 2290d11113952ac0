/**
 * The browser's offer to install the app (beforeinstallprompt, Chromium): kept when it comes, so the
 * user menu can offer 安装到桌面 at a moment the user chooses instead of the browser's own banner.
 */
import { useSyncExternalStore } from 'react';

interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let offer: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const publish = () => listeners.forEach((l) => l());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    offer = e as InstallPromptEvent;
    publish();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    publish();
  });
}

/** Whether the browser offers to install the app now. */
export function useInstallOffer(): boolean {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => void listeners.delete(l)),
    () => offer !== null,
  );
}

/** Shows the browser's install dialog; true when the user accepted. */
export async function promptInstall(): Promise<boolean> {
  const current = offer;
  if (!current) return false;
  offer = null;
  publish();
  await current.prompt();
  return (await current.userChoice).outcome === 'accepted';
}
