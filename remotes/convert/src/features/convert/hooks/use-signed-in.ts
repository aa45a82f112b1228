import { useSession } from '@cw/shared-state/session';
import { useEffect } from 'react';

/** The session status; asks the server once when the app was opened directly on a convert screen. */
export function useSessionStatus() {
  const status = useSession((s) => s.status);
  const refresh = useSession((s) => s.refresh);
  useEffect(() => {
    if (status === 'unknown') refresh().catch(() => undefined);
  }, [status, refresh]);
  return status;
}
