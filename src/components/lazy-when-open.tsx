import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { LoadFailure } from './LoadFailure';

/**
 * A dialog or drawer whose code loads the first time it opens, not with the page: the page shows
 * sooner, and most visits never open most dialogs. Once loaded it stays mounted (closing animates, as
 * before). `isOpen` reads the open state from the props the dialog already takes. A failed load (offline
 * without the service worker's copy) shows nothing and is tried again at the next opening.
 */
export function lazyWhenOpen<P extends object>(load: () => Promise<ComponentType<P>>, isOpen: (props: P) => boolean): ComponentType<P> {
  const makeLazy = () => lazy(() => load().then((Dialog) => ({ default: Dialog })));
  let Lazy = makeLazy();
  function LazyWhenOpen(props: P) {
    const open = isOpen(props);
    const [wanted, setWanted] = useState(open);
    // After a failed load: nothing until the caller closes it, so the next opening tries again.
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (open) setWanted(true);
      else setFailed(false);
    }, [open]);
    if (failed || (!wanted && !open)) return null;
    return (
      <LoadFailure
        key={attempt}
        onFailed={(error) => {
          // A dialog chunk that failed to load (offline without the service worker): nothing shows, the page stays.
          console.warn('dialog chunk failed to load', error);
          Lazy = makeLazy();
          setFailed(true);
          setWanted(false);
          setAttempt((n) => n + 1);
        }}
      >
        <Suspense fallback={null}>
          <Lazy {...props} />
        </Suspense>
      </LoadFailure>
    );
  }
  return LazyWhenOpen;
}
