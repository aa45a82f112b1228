import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/**
 * Contains a failed screen or remote to its own area: the frame, the tab bar
 * and every other route keep working; the area shows the translated
 * "Request failed, click to reload", which retries. Navigating away resets it.
 */
export function RouteErrorBoundary({
  children,
  onRetry,
  onError,
}: {
  children: ReactNode;
  onRetry?: () => void;
  /** Hears each caught failure once (after React commits the retry state), e.g. to report it. */
  onError?: (error: unknown) => void;
}) {
  const { pathname } = useLocation();
  return (
    <Boundary resetKey={pathname} {...(onRetry ? { onRetry } : {})} {...(onError ? { onError } : {})}>
      {children}
    </Boundary>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** A new key (the path) clears the failure. */
  resetKey: string;
  /** Called when the area tries again: a tap on the message, or a new key after a failure. */
  onRetry?: () => void;
  onError?: (error: unknown) => void;
}

/**
 * React's error boundary is a class; this one is the few lines the app needs (catch, show the retry,
 * reset on a new path). A library for it cost the landing page half a kilobyte.
 */
class Boundary extends Component<BoundaryProps, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<{ failed: boolean }> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; key: string }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  // componentDidCatch runs once per caught error, in the commit: not on React's render retries.
  override componentDidCatch(error: unknown): void {
    this.props.onError?.(error);
  }

  override componentDidUpdate(previous: BoundaryProps, before: { failed: boolean }): void {
    if (before.failed && previous.resetKey !== this.props.resetKey) this.props.onRetry?.();
  }

  retry = () => {
    this.props.onRetry?.();
    this.setState({ failed: false });
  };

  override render() {
    return this.state.failed ? <LoadFailed onRetry={this.retry} /> : this.props.children;
  }
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('host');
  return (
    <button type="button" className="remote-failed" data-testid="remote-load-failed" onClick={onRetry}>
      {t('remote.loadFailed')}
    </button>
  );
}
