import { useErrorMessage } from '@cw/shared-state/errors';
import { rememberReturnTo, useSession } from '@cw/shared-state/session';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { AFTER_LOGIN_PATH } from '../features/account/paths.ts';
import { notifyFail } from '../features/account/utils/notify.ts';
import { PageLoading } from '../frame/page-loading.tsx';

/**
 * Login guard for screens that need a user (host account screens and remote
 * routes with `requiresLogin`). A visitor is sent to /login with the message
 * that login is needed first; the page they wanted is remembered (allowBack
 * in the vuex user store) so the login returns them there.
 */
export function RouteGuard({
  requiresLogin,
  visitorsOnly = false,
  children,
}: {
  requiresLogin: boolean;
  visitorsOnly?: boolean;
  children: ReactNode;
}) {
  if (visitorsOnly) return <VisitorsOnly>{children}</VisitorsOnly>;
  if (!requiresLogin) return children;
  return <LoginRequired>{children}</LoginRequired>;
}

/**
 * Screens for visitors (registration, the landing page): a logged-in user is sent to the wallet.
 * The screen shows at once (a visitor never waits on the check); the session check runs beside it.
 */
function VisitorsOnly({ children }: { children: ReactNode }) {
  // Decided by how the user arrived: registering on this screen signs the user in, and that user
  // goes on to the registration-success screen, not to the wallet.
  const [arrivedSignedIn, setArrivedSignedIn] = useState(() => useSession.getState().status === 'authenticated');
  useEffect(() => {
    const { status, check } = useSession.getState();
    if (status !== 'unknown') return;
    check().then(
      (me) => setArrivedSignedIn(me !== null),
      // No answer: stay on the visitor's screen; the next guarded screen asks again.
      () => undefined,
    );
  }, []);
  if (arrivedSignedIn) return <Navigate to={AFTER_LOGIN_PATH} replace />;
  return children;
}

function LoginRequired({ children }: { children: ReactNode }) {
  const { t } = useTranslation('host');
  const message = useErrorMessage();
  const status = useSession((state) => state.status);
  const refresh = useSession((state) => state.refresh);
  const { pathname, search, hash } = useLocation();
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);

  useEffect(() => {
    if (status !== 'unknown' || failure) return;
    refresh().catch((error: unknown) => setFailure({ error }));
  }, [status, failure, refresh]);

  useEffect(() => {
    if (status !== 'anonymous') return;
    rememberReturnTo(`${pathname}${search}${hash}`);
    notifyFail(t('account.login.needed'));
  }, [status, pathname, search, hash, t]);

  if (status === 'authenticated') return children;
  if (status === 'anonymous') return <Navigate to="/login" replace />;
  if (failure) {
    return (
      <button
        type="button"
        className="remote-failed"
        data-testid="session-check-failed"
        onClick={() => setFailure(null)}
      >
        {message(failure.error)}
      </button>
    );
  }
  return <PageLoading />;
}
