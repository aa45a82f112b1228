import { useNavigate } from '@cw/shared-state/router';
import { useCallback } from 'react';

/** Whether the router has an earlier entry of this app to go back to (it keeps the index in history.state). */
export function hasHistory(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** Go back, or to `fallback` when the app was opened on this screen. */
export function useBackOr(fallback: string): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (hasHistory()) void navigate(-1);
    else void navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}
