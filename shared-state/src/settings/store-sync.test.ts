import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { changeLanguage, currentLanguage } = await import('@cw/shared-state/i18n');
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

describe('settings sync when signed in', () => {
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
