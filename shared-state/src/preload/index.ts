import { type ComponentType, lazy } from 'react';

/**
 * A failed lazy page load raises a `preloadError` event on window. A listener
 * may call preventDefault() to handle it (e.g. reload); if nothing does, the
 * original error is rethrown so the nearest error boundary shows it.
 */
export class PreloadError extends Error {
  override readonly name = 'PreloadError';
  constructor(readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export async function loadWithPreloadError<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    const event = new CustomEvent('preloadError', { cancelable: true, detail: new PreloadError(cause) });
    const unhandled = typeof window === 'undefined' || window.dispatchEvent(event);
    if (unhandled) throw cause;
    // A listener handled it (it may reload the page); keep the screen suspended.
    return new Promise<T>(() => {});
  }
}

/** React.lazy with the preload-error contract; for route screens. */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => loadWithPreloadError(load));
}
