import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { rememberReturnTo, takeReturnTo, useSession, useUserStore, onSignedOut, onUserChanged, USER_STORAGE_KEY } =
  await import('./index.ts');

const ME = {
  id: 'u1',
  username: 'alice',
  nickname: null,
  email: 'alice@example.com',
  emailMasked: 'a***@example.com',
  country: 'ES',
  hasFundPassword: false,
  createdAt: '2026-01-01T00:00:00Z',
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  fetchMock.mockReset();
  sessionStorage.clear();
  useSession.setState({ status: 'unknown', me: null });
  useUserStore.setState({ user: { allowBack: false, email: '' } });
});

describe('useSession', () => {
  it('becomes authenticated when /api/session answers with a user', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    await expect(useSession.getState().refresh()).resolves.toEqual(ME);
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', me: ME });
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toMatch(/\/api\/session$/);
    expect(request?.credentials).toBe('same-origin');
  });

  it('becomes anonymous on a visitor answer (200, no user: never a 401) and shares one request between callers', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { user: null }));
    const [a, b] = await Promise.all([useSession.getState().refresh(), useSession.getState().refresh()]);
    expect([a, b]).toEqual([null, null]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('keeps the status and throws NETWORK_ERROR when there is no answer', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(useSession.getState().refresh()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    expect(useSession.getState().status).toBe('unknown');
  });

  it('logs out on the server and tells listeners', async () => {
    const listener = vi.fn();
    const stop = onSignedOut(listener);
    useSession.getState().signedIn(ME);
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await useSession.getState().logout();
    expect(fetchMock.mock.calls[0]?.[0].method).toBe('POST');
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', me: null });
    expect(listener).toHaveBeenCalledOnce();
    stop();
  });
});

describe('onUserChanged (issue 40 item 1: nothing of one account is shown to the next)', () => {
  const BOB = { ...ME, id: 'u2', username: 'bob', email: 'bob@example.com' };

  it('fires when a session ends by a 401 (expiry, password reset elsewhere), not only on logout', async () => {
    const listener = vi.fn();
    const stop = onUserChanged(listener);
    useSession.getState().signedIn(ME);
    fetchMock.mockResolvedValueOnce(json(200, { user: null }));
    await useSession.getState().refresh();
    expect(listener).toHaveBeenCalledOnce();
    stop();
  });

  it('fires when another user signs in without a sign-out in between; not when the same user is re-read', async () => {
    const listener = vi.fn();
    const stop = onUserChanged(listener);
    useSession.getState().signedIn(ME);
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    await useSession.getState().refresh();
    expect(listener).not.toHaveBeenCalled();
    useSession.getState().signedIn(BOB);
    expect(listener).toHaveBeenCalledOnce();
    stop();
  });
});

describe('return after login', () => {
  it('remembers the target and sets allowBack in the vuex user store', () => {
    rememberReturnTo('/securitySettings?tab=1');
    expect(JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}')).toEqual({
      user: { allowBack: true, email: '' },
    });
    expect(takeReturnTo('/coinTopup')).toBe('/securitySettings?tab=1');
    expect(useUserStore.getState().user.allowBack).toBe(false);
    expect(takeReturnTo('/coinTopup')).toBe('/coinTopup');
  });

  it('never returns to another origin', () => {
    rememberReturnTo('//evil.example/x');
    expect(takeReturnTo('/coinTopup')).toBe('/coinTopup');
  });
});

describe('useKnownSession', () => {
  it('asks /api/session once when nothing has asked yet this page load, so a signed-in user arriving by a link is seen', async () => {
    const { renderHook, waitFor } = await import('@testing-library/react');
    const { useKnownSession } = await import('./index.ts');
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    const { result, unmount } = renderHook(() => useKnownSession());
    expect(result.current).toBe('unknown');
    await waitFor(() => expect(result.current).toBe('authenticated'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(new URL(fetchMock.mock.calls[0]?.[0].url ?? '').pathname).toBe('/api/session');
    unmount();
  });

  it('does not ask again once the status is known', async () => {
    const { renderHook } = await import('@testing-library/react');
    const { useKnownSession } = await import('./index.ts');
    useSession.setState({ status: 'anonymous', me: null });
    const { result, unmount } = renderHook(() => useKnownSession());
    expect(result.current).toBe('anonymous');
    expect(fetchMock).not.toHaveBeenCalled();
    unmount();
  });
});
