import { i18n } from '@cw/shared-state/i18n';
import { cleanup, render, screen } from '@testing-library/react';
import { type ComponentType, lazy } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerHostTranslations } from '../i18n/index.ts';
import { flushLoadReports } from './load-reports.ts';
import { RemoteRoutes } from './remote-screens.tsx';

registerHostTranslations();

/**
 * Issue 35: a remote whose ./routes loaded but whose screen fails (its chunk does not load, or it throws
 * while rendering) is reported to /api/client-events as one failure of that remote and version, code
 * SCREEN, so that the canary watch counts it; the area shows its retry state.
 */
function renderScreen(Component: ComponentType) {
  const onRetry = vi.fn();
  const module = { namespace: 'wallet', routes: [{ path: '/wallet/send', Component }] };
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/wallet/send']}>
        <Routes>
          <Route
            path="*"
            element={<RemoteRoutes module={module} remote="wallet" version="1.1.0-b" onRetry={onRetry} />}
          />
        </Routes>
      </MemoryRouter>
    </I18nextProvider>,
  );
  return onRetry;
}

async function reportedEvents(fetch: ReturnType<typeof vi.fn>) {
  flushLoadReports();
  return fetch.mock.calls.flatMap(([, init]) => JSON.parse(String((init as RequestInit).body)).events);
}

describe('a failing remote screen (issue 35)', () => {
  let fetch: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    // React logs each caught error; the test asserts on the report instead.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    // A report made after the last read (the retry renders the screen again) goes to this test's fetch
    // now, not on the module's timer into a later file's stubbed fetch (the files share a worker).
    flushLoadReports();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('whose chunk fails to load is reported once, with remote, version and code SCREEN', async () => {
    const Broken = lazy(() => Promise.reject(new Error('Loading chunk 812 failed. (missing: /wallet/812.js)')));
    renderScreen(Broken);
    expect(await screen.findByTestId('remote-load-failed')).toBeTruthy();
    expect(await reportedEvents(fetch)).toEqual([
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'SCREEN' },
    ]);
  });

  it('that throws while rendering is reported once, and the retry asks the area to reload', async () => {
    const Throws = () => {
      throw new TypeError('cannot read properties of undefined (skewed canary)');
    };
    const onRetry = renderScreen(Throws);
    const retry = await screen.findByTestId('remote-load-failed');
    expect(await reportedEvents(fetch)).toEqual([
      { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'SCREEN' },
    ]);
    retry.click();
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
