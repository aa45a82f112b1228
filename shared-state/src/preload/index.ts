import { type ComponentType, createElement, lazy } from 'react';

/**
 * A failed lazy page load raises a `preloadError` event on window. A listener
 * may call preventDefault() to handle it (e.g. reload); if nothing does, the
 * original error is rethrown so the nearest error boundary shows it.
 */
export class PreloadError extends Error {
  override readonly name = 'PreloadError';
  constructor(override readonly cause: unknown) {
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

/**
 * React.lazy with the preload-error contract, for route screens. Unlike
 * React.lazy it does not remember a failure: after an error boundary resets,
 * the next render tries the load again ("click to reload" really retries).
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const attempt = () =>
    lazy(() =>
      loadWithPreloadError(load).catch((error: unknown) => {
        current = attempt();
        throw error;
      }),
    );
  let current = attempt();
  return function LazyScreen(props: P) {
    return createElement(current as ComponentType<P>, props);
  };
}
