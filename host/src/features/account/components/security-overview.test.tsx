import { queryClient } from '@cw/shared-state/api';
import { useSession } from '@cw/shared-state/session';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { json, renderAt } = await import('../test-helpers.tsx');
const { SecurityOverview } = await import('./security-overview.tsx');
const { default: LoginHistoryScreen } = await import('./login-history-screen.tsx');

const UNTIL = '2026-11-28T09:30:00.000Z';
const OVERVIEW = {
  factors: { totp: false, passkeys: 1, recoveryCodesLeft: 2 },
  allowlist: { on: true, offAt: UNTIL },
  locks: [{ kind: 'outflow_hold', reason: 'passkey_added', since: null, until: UNTIL }],
  lastSignIn: {
    at: '2026-11-27T08:00:00.000Z',
    ip: '8.8.8.8',
    device: { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' },
    place: { country: 'US', region: null, city: null },
    method: 'password',
  },
  failedSinceLastSignIn: 2,
  next: ['turn_on_allowlist', 'new_recovery_codes'],
};

const entry = (id: number, result = 'succeeded') => ({
  id: String(id),
  at: '2026-11-27T08:00:00.000Z',
  ip: id % 2 ? '8.8.8.8' : null,
  device:
    id % 2
      ? { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' }
      : { browser: null, os: null, platform: null },
  place: id % 2 ? { country: 'US', region: null, city: null } : { country: null, region: null, city: null },
  method: 'password+totp',
  result,
});

function route(handlers: Record<string, (url: URL) => Response>) {
  fetchMock.mockImplementation(async (request: Request) => {
    const url = new URL(request.url);
    const handler = handlers[url.pathname];
    return handler ? handler(url) : json(404, { code: 'NOT_FOUND', message: url.pathname });
  });
}

const wrap = (element: React.ReactElement) => <QueryClientProvider client={queryClient}>{element}</QueryClientProvider>;

beforeEach(() => {
  fetchMock.mockReset();
  queryClient.clear();
  useSession.setState({ me: { id: 'u1' } as never });
});
afterEach(cleanup);

describe('SecurityOverview', () => {
  it('shows the factors, the allowlist turning off, the lock with its reason and end, the last sign-in and next steps', async () => {
    route({
      '/api/me/security/overview': () => json(200, OVERVIEW),
      '/api/me/security/locks': () => json(200, { locks: OVERVIEW.locks }),
    });
    renderAt('/securitySettings', wrap(<SecurityOverview />));
    expect((await screen.findByTestId('overview-passkeys')).textContent).toBe('已添加 1 个');
    expect(screen.getByTestId('overview-totp').textContent).toBe('未开启');
    expect(screen.getByTestId('overview-recovery').textContent).toBe('剩余 2 个');
    expect(screen.getByTestId('overview-allowlist').textContent).toMatch(/^已开启，.+关闭$/);
    expect(screen.getByTestId('overview-last-sign-in').textContent).toContain('Chrome 131 · Windows 10');
    expect(screen.getByTestId('overview-last-sign-in').textContent).toContain('美国');
    expect(screen.getByTestId('overview-failed').textContent).toBe('此后失败尝试：2 次');
    expect(screen.getByTestId('overview-next-turn_on_allowlist').textContent).toBe('开启提币白名单');
    expect((await screen.findByTestId('lock-hold')).textContent).toContain('已添加通行密钥');
    fireEvent.click(screen.getByTestId('overview-logins'));
    expect(screen.getByTestId('location').textContent).toBe('/securityLogins');
  });

  it('without a lock shows no banner', async () => {
    route({
      '/api/me/security/overview': () => json(200, { ...OVERVIEW, locks: [] }),
      '/api/me/security/locks': () => json(200, { locks: [] }),
    });
    renderAt('/securitySettings', wrap(<SecurityOverview />));
    await screen.findByTestId('overview-passkeys');
    await waitFor(() => expect(fetchMock.mock.calls.some(([r]) => r.url.endsWith('/locks'))).toBe(true));
    expect(screen.queryByTestId('security-lock-banner')).toBeNull();
  });
});

describe('LoginHistoryScreen', () => {
  it('lists attempts with device, place, method and result, and pages on with nextBefore until the end', async () => {
    const asked: (string | null)[] = [];
    route({
      '/api/me/security/logins': (url) => {
        const before = url.searchParams.get('before');
        asked.push(before);
        return before === null
          ? json(200, { logins: [entry(3), entry(2, 'failed')], nextBefore: '2' })
          : json(200, { logins: [entry(1, 'factor_failed')], nextBefore: null });
      },
    });
    renderAt('/securityLogins', wrap(<LoginHistoryScreen />));
    await waitFor(() => expect(screen.getAllByTestId('login-entry').length).toBeGreaterThanOrEqual(2));
    const first = screen.getAllByTestId('login-entry')[0];
    expect(first?.textContent).toContain('Chrome 131 · Windows 10');
    expect(first?.textContent).toContain('密码 + 身份验证器');
    expect(first?.textContent).toContain('美国 · 8.8.8.8');
    expect(screen.getAllByTestId('login-device')[1]?.textContent).toBe('非浏览器（应用或脚本）');
    expect(screen.getAllByTestId('login-result')[1]?.textContent).toBe('失败');
    if (screen.queryByTestId('logins-more')) fireEvent.click(screen.getByTestId('logins-more'));
    await waitFor(() => expect(screen.getAllByTestId('login-entry')).toHaveLength(3));
    expect(asked.slice(0, 2)).toEqual([null, '2']);
    expect(screen.getAllByTestId('login-result')[2]?.textContent).toBe('验证码错误');
    expect(await screen.findByTestId('logins-end')).toBeTruthy();
  });
});
