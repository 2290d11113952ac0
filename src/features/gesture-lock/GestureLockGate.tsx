import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { lockGestureOnServer, useGestureStatusQuery } from '../../lib/data/gesture';
import { onGestureLockedByServer } from '../../lib/gesture-lock-signal';
import { useUserDetailsQuery } from '../../lib/data/queries';
import { runsInstalledNow } from '../../lib/installed-app';
import { signedInInThisPage } from '../../lib/data/session';
import { getAppStorage } from '../../lib/storage';
import { clearLocked, idleExpired, lockedSince, markLocked, startState, type StartState } from './lock-policy';
import { LockScreen } from './LockScreen';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * 手势密码 over everything under /main (policy in lock-policy.ts): while locked the app stays mounted
 * (transfers, open dialogs and the page keep their state) but is not shown — display: none, and every
 * other layer of the page (antd's dialogs and messages live beside the app) is inert and hidden from
 * screen readers — and the lock screen covers the window.
 */
export function GestureLockGate({ children }: { children: ReactNode }) {
  const status = useGestureStatusQuery();
  const user = useUserDetailsQuery().data;
  const account = user ? `${user.tenantId}:${user.id}` : '';
  const required = status.data?.required;
  const idleMinutes = status.data?.idleMinutes ?? 5;
  const [installed] = useState(runsInstalledNow);
  const storage = getAppStorage();
  const [state, setState] = useState<StartState>(() =>
    startState({ installed, signedInHere: signedInInThisPage(), flagged: account !== '' && lockedSince(storage, account) !== null, required }),
  );

  // The status arrived (or changed: the admin turned the switch off, the pattern was cleared).
  useEffect(() => {
    if (required === false) {
      clearLocked(storage);
      setState('open');
    } else if (required === true) {
      setState((s) => (s === 'checking' ? 'locked' : s));
    } else if (status.isError && state === 'checking' && !installed) {
      // Never asked before and the server cannot be reached: a tab does not lock on a guess.
      setState('open');
    }
  }, [required, status.isError, state, installed, storage]);

  // The server holds the lock too: another tab, a script or devtools holding the session's cookie is
  // refused (GESTURE_LOCKED) until the pattern is drawn here.
  const locked = state === 'locked';
  useEffect(() => {
    if (locked) void lockGestureOnServer();
  }, [locked]);
  // The server says this session is locked (another window of it locked it, or it was locked before a
  // reload): the lock screen, whatever this window thought.
  const serverLocked = status.data?.locked === true;
  useEffect(() => {
    if (serverLocked) setState('locked');
  }, [serverLocked]);
  useEffect(() => onGestureLockedByServer(() => setState('locked')), []);

  // The flag is the state every window of this browser profile shares.
  useEffect(() => {
    if (state === 'locked' && account) markLocked(storage, account, Date.now());
  }, [state, account, storage]);
  useEffect(() => {
    if (!account) return;
    const onStorage = () => {
      const flagged = lockedSince(storage, account) !== null;
      setState((s) => (flagged && s === 'open' && required === true ? 'locked' : !flagged && s === 'locked' ? 'open' : s));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [account, required, storage]);

  useIdleLock(installed && required === true && state === 'open', idleMinutes, () => setState('locked'));

  // Closing the installed app locks it (and the tabs that share its session).
  useEffect(() => {
    if (!installed || required !== true || !account) return;
    const onHide = () => markLocked(storage, account, Date.now());
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [installed, required, account, storage]);

  const covered = state !== 'open';
  useInertOutside(covered);

  return (
    <>
      <div style={covered ? { display: 'none' } : undefined} aria-hidden={covered || undefined} data-testid="gesture-lock-content">
        {children}
      </div>
      {covered &&
        createPortal(
          <LockScreen
            checking={state === 'checking'}
            user={user}
            onUnlocked={() => {
              clearLocked(storage);
              setState('open');
            }}
            onSignedOut={() => clearLocked(storage)}
          />,
          document.body,
        )}
    </>
  );
}

/** Locks after `idleMinutes` without input, or when the window comes back after being hidden that long. */
function useIdleLock(active: boolean, idleMinutes: number, lock: () => void): void {
  const lastActive = useRef(Date.now());
  const lockRef = useRef(lock);
  lockRef.current = lock;
  useEffect(() => {
    if (!active) return;
    lastActive.current = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (idleExpired(lastActive.current, Date.now(), idleMinutes)) lockRef.current();
      else arm();
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(check, Math.max(1000, lastActive.current + idleMinutes * 60_000 - Date.now()));
    };
    const onActivity = () => {
      if (!document.hidden) lastActive.current = Date.now();
    };
    // Hidden counts as idle from the moment it was hidden; coming back after the time locks at once.
    const onVisibility = () => {
      if (document.hidden) lastActive.current = Math.min(lastActive.current, Date.now());
      else check();
    };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisibility);
    arm();
    return () => {
      clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [active, idleMinutes]);
}

/** While the lock is up, nothing else on the page can be reached: by pointer, keyboard or screen reader. */
function useInertOutside(covered: boolean): void {
  useEffect(() => {
    if (!covered) return;
    const changed: HTMLElement[] = [];
    const apply = () => {
      for (const el of Array.from(document.body.children)) {
        if (!(el instanceof HTMLElement) || el.dataset.gestureLock !== undefined || el.inert) continue;
        el.inert = true;
        changed.push(el);
      }
    };
    apply();
    // antd adds its layers (messages, dialogs) to the body later.
    const observer = new MutationObserver(apply);
    observer.observe(document.body, { childList: true });
    return () => {
      observer.disconnect();
      for (const el of changed) el.inert = false;
    };
  }, [covered]);
}
