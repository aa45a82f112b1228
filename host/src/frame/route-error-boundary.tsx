import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/**
 * Contains a failed screen or remote to its own area: the frame, the tab bar
 * and every other route keep working; the area shows the translated
 * "Request failed, click to reload", which retries. Navigating away resets it.
 */
export function RouteErrorBoundary({ children, onRetry }: { children: ReactNode; onRetry?: () => void }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary FallbackComponent={LoadFailed} onReset={onRetry} resetKeys={[pathname]}>
      {children}
    </ErrorBoundary>
  );
}

function LoadFailed({ resetErrorBoundary }: FallbackProps) {
  const { t } = useTranslation('host');
  return (
    <button type="button" className="remote-failed" data-testid="remote-load-failed" onClick={resetErrorBoundary}>
      {t('remote.loadFailed')}
    </button>
  );
}
