import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { changeLanguage, currentLanguage } = await import('@cw/shared-state/i18n');
const { useSession } = await import('@cw/shared-state/session');
const { useSettings } = await import('./store.ts');
const { DEFAULT_SETTINGS } = await import('./schema.ts');

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(async () => {
  fetchMock.mockReset();
  localStorage.clear();
  await changeLanguage('es');
  useSettings.setState({
    ...DEFAULT_SETTINGS,
    language: 'es',
    source: 'local',
    local: { ...DEFAULT_SETTINGS, language: 'es' },
  });
});

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

describe('settings sync for a visitor (issue 30 item 7: no 401 in the console)', () => {
  it('asks GET /api/session, not /api/me/settings, and keeps the local settings', async () => {
    useSession.setState({ status: 'unknown', me: null });
    fetchMock.mockResolvedValueOnce(json({ user: null }));
    await useSettings.getState().sync();
    expect(fetchMock.mock.calls.map((c) => new URL(c[0].url).pathname)).toEqual(['/api/session']);
    expect(useSettings.getState()).toMatchObject({ language: 'es', source: 'local', syncStatus: 'synced' });
  });

  it('asks nothing when the session already said "visitor"', async () => {
    useSession.setState({ status: 'anonymous', me: null });
    await useSettings.getState().sync();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSettings.getState()).toMatchObject({ source: 'local', syncStatus: 'synced' });
  });
});

describe('settings sync when signed in', () => {
  beforeEach(async () => {
    // Signing in starts a sync of its own (the store follows the session): let it run out, then count afresh.
    useSession.setState({ status: 'authenticated', me: ME });
    await new Promise((resolve) => setTimeout(resolve, 10));
    fetchMock.mockReset();
  });

  it("a new account (never saved) keeps this browser's language and stores it with the account", async () => {
    fetchMock.mockResolvedValueOnce(json({ ...DEFAULT_SETTINGS, language: 'zh-CN', saved: false }));
    fetchMock.mockImplementationOnce(async (request) => json({ ...(await request.clone().json()), saved: true }));
    await useSettings.getState().sync();
    expect(currentLanguage()).toBe('es');
    expect(useSettings.getState()).toMatchObject({ language: 'es', source: 'server' });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const put = fetchMock.mock.calls[1]?.[0];
    expect(put?.method).toBe('PUT');
    expect(await put?.json()).toMatchObject({ language: 'es' });
  });

  it("an account's saved language wins", async () => {
    fetchMock.mockResolvedValueOnce(json({ ...DEFAULT_SETTINGS, language: 'zh-TW', saved: true }));
    await useSettings.getState().sync();
    expect(currentLanguage()).toBe('zh-TW');
    expect(fetchMock).toHaveBeenCalledOnce();
    await changeLanguage('zh-CN');
  });
});
