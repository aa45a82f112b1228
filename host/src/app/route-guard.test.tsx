import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { useSession, useUserStore, takeReturnTo } = await import('@cw/shared-state/session');
const { json, renderAt } = await import('../features/account/test-helpers.tsx');
const { RouteGuard } = await import('./route-guard.tsx');

const ME = {
  id: '00000000-0000-0000-0000-000000000001',
  username: 'alice_1',
  nickname: null,
  email: 'alice@example.com',
  emailMasked: 'al***@example.com',
  country: 'ES',
  hasFundPassword: true,
  createdAt: '2026-01-01T00:00:00Z',
};

const guarded = (
  <RouteGuard requiresLogin>
    <p data-testid="secret">secret</p>
  </RouteGuard>
);

beforeEach(() => {
  fetchMock.mockReset();
  sessionStorage.clear();
  useSession.setState({ status: 'unknown', me: null });
  useUserStore.setState({ user: { allowBack: false, email: '' } });
});
afterEach(cleanup);

describe('RouteGuard', () => {
  it('lets everyone through where no login is needed', () => {
    renderAt(
      '/open',
      <RouteGuard requiresLogin={false}>
        <p data-testid="secret">open</p>
      </RouteGuard>,
    );
    expect(screen.getByTestId('secret')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the server, then shows the page to a logged-in user', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    renderAt('/securitySettings', guarded);
    expect(await screen.findByTestId('secret')).toBeTruthy();
    expect(useSession.getState().status).toBe('authenticated');
  });

  it('sends a visitor to /login and remembers where they were going (allowBack)', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: null }));
    renderAt('/securitySettings?x=1', guarded, '/securitySettings');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    // Asked without a 401 (issue 30 item 7): GET /api/session answers a visitor 200 { user: null }.
    expect(fetchMock.mock.calls.map((c) => new URL(c[0].url).pathname)).toEqual(['/api/session']);
    expect(screen.queryByTestId('secret')).toBeNull();
    expect(JSON.parse(localStorage.getItem('vuex') ?? '{}')).toMatchObject({ user: { allowBack: true } });
    expect(takeReturnTo('/coinTopup')).toBe('/securitySettings?x=1');
  });

  it('offers a retry when the session check gets no answer', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    renderAt('/securitySettings', guarded);
    expect(await screen.findByTestId('session-check-failed')).toHaveProperty('textContent', '网络错误，请稍后再试');
  });

  it('sends a logged-in user who opens the registration page to the wallet', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    renderAt(
      '/signIn',
      <RouteGuard requiresLogin={false} visitorsOnly>
        <p data-testid="signup">form</p>
      </RouteGuard>,
    );
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/coinTopup'));
  });

  it('shows the registration page to a visitor at once, and keeps it after the check', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: null }));
    renderAt(
      '/signIn',
      <RouteGuard requiresLogin={false} visitorsOnly>
        <p data-testid="signup">form</p>
      </RouteGuard>,
    );
    expect(screen.getByTestId('signup')).toBeTruthy();
    expect(new URL(fetchMock.mock.calls[0]?.[0].url ?? '').pathname).toBe('/api/session');
    await waitFor(() => expect(useSession.getState().status).toBe('anonymous'));
    expect(screen.getByTestId('location').textContent).toBe('/signIn');
  });

  it('a user who registers on the page is not sent away from it by the guard', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: null }));
    renderAt(
      '/signIn',
      <RouteGuard requiresLogin={false} visitorsOnly>
        <p data-testid="signup">form</p>
      </RouteGuard>,
    );
    await waitFor(() => expect(useSession.getState().status).toBe('anonymous'));
    useSession.getState().signedIn(ME);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByTestId('location').textContent).toBe('/signIn');
  });
});
