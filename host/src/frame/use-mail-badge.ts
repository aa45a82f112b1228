import { api, unwrap } from '@cw/shared-state/api';
import { NOTICES_CHANGED_EVENT } from '@cw/shared-state/contracts';
import { useKnownSession } from '@cw/shared-state/session';
import { useEffect, useState } from 'react';

/** How often the tab bar asks for the unread count while the app is open. */
const POLL_MS = 60_000;

/**
 * The mail tab's badge: unread announcements and system notices of the signed-in user (0 for a
 * visitor). Asked on sign-in, every minute, when the window regains focus, and when the mail remote
 * says read marks changed (NOTICES_CHANGED_EVENT): a plain DOM event, no store shared between apps.
 */
export function useMailBadge(): number {
  const signedIn = useKnownSession() === 'authenticated';
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!signedIn) {
      setCount(0);
      return;
    }
    let alive = true;
    const load = () =>
      void unwrap(api.GET('/api/notices/unread')).then(
        (unread) => alive && setCount(unread.total),
        () => {}, // the badge is a hint: a failed count keeps the last one
      );
    load();
    const timer = window.setInterval(load, POLL_MS);
    window.addEventListener(NOTICES_CHANGED_EVENT, load);
    window.addEventListener('focus', load);
    return () => {
      alive = false;
      window.clearInterval(timer);
      window.removeEventListener(NOTICES_CHANGED_EVENT, load);
      window.removeEventListener('focus', load);
    };
  }, [signedIn]);
  return count;
}
