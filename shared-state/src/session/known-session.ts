import { useEffect } from 'react';
import { type SessionStatus, useSession } from './server-session.ts';

/**
 * The session status on a screen anyone may open (the mail tab, announcements): when nothing has
 * asked yet this page load ('unknown'), asks once (GET /api/session, never a 401), so a signed-in
 * user who arrives by a link is seen as signed in. A failed check leaves 'unknown' (treated as a
 * visitor) and the next screen asks again.
 */
export function useKnownSession(): SessionStatus {
  const status = useSession((s) => s.status);
  useEffect(() => {
    if (status === 'unknown')
      useSession
        .getState()
        .check()
        .catch(() => undefined);
  }, [status]);
  return status;
}
