import { lazy, Suspense } from 'react';
import { usePopupNotices } from '../lib/notices/notice-data';

const NoticePopup = lazy(() => import('../features/notices/NoticePopup').then((m) => ({ default: m.NoticePopup })));

/**
 * Important notices not shown to the user yet pop up once, when the account opens (a login, a start
 * of the app). The pop-up's code loads only when there is one to show.
 */
export function NoticePopupGate() {
  const popup = usePopupNotices(true);
  if (!popup || popup.items.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <NoticePopup items={popup.items} />
    </Suspense>
  );
}
