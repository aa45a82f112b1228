import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { rememberReturnTo, useSession, useUserStore } = await import('@cw/shared-state/session');
const { json, renderAt } = await import('../test-helpers.tsx');
const { default: LoginScreen } = await import('./login-screen.tsx');
const { changeLanguage } = await import('@cw/shared-state/i18n');

const ME = {
  id: '00000000-0000-0000-0000-000000000001',
  username: 'alice_1',
  nickname: null,
  email: 'alice@example.com',
  emailMasked: 'al***@example.com',
  country: 'ES',
  hasFundPassword: false,
  createdAt: '2026-01-01T00:00:00Z',
};

function logIn(identifier: string, password: string) {
  fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: identifier } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

beforeEach(() => {
  fetchMock.mockReset();
  sessionStorage.clear();
  useSession.setState({ status: 'anonymous', me: null });
  useUserStore.setState({ user: { allowBack: false, email: '' } });
});
afterEach(cleanup);

describe('LoginScreen', () => {
  it('shows wrong credentials on the password field', async () => {
    renderAt('/login', <LoginScreen />);
    fetchMock.mockResolvedValueOnce(json(401, { code: 'INVALID_CREDENTIALS', message: 'no' }));
    logIn('alice_1', 'Wrong_pass1');
    expect(await screen.findByTestId('field-error-password')).toHaveProperty('textContent', '账号或密码错误');
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('asks for the authenticator code when the password answers 202; a recovery code goes as one', async () => {
    renderAt('/login', <LoginScreen />);
    fetchMock
      .mockResolvedValueOnce(json(202, { factorRequired: true }))
      .mockResolvedValueOnce(json(200, { totp: true, passkey: false, recoveryCode: true }));
    logIn('alice_1', 'Passw0rd!');
    const field = await screen.findByTestId('login-factor-code');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(field.dataset.factor).toBe('totp');
    expect(useSession.getState().status).toBe('anonymous');
    fetchMock.mockResolvedValueOnce(json(400, { code: 'WRONG_FACTOR_CODE', message: 'no' }));
    fireEvent.change(field, { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('login-factor-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(await fetchMock.mock.calls[2]?.[0].json()).toEqual({ totpCode: '123456' });
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    fireEvent.change(screen.getByTestId('login-factor-code'), { target: { value: 'abcd-efgh-ijkl-mnop' } });
    fireEvent.click(screen.getByTestId('login-factor-submit'));
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
    expect(await fetchMock.mock.calls[3]?.[0].json()).toEqual({ recoveryCode: 'abcd-efgh-ijkl-mnop' });
  });

  it('a passkey-only account (no authenticator app) is asked for a recovery code, not an app code', async () => {
    renderAt('/login', <LoginScreen />);
    fetchMock
      .mockResolvedValueOnce(json(202, { factorRequired: true }))
      .mockResolvedValueOnce(json(200, { totp: false, passkey: true, recoveryCode: true }));
    logIn('alice_1', 'Passw0rd!');
    const field = await screen.findByTestId('login-factor-code');
    await waitFor(() => expect(field.dataset.factor).toBe('recovery'));
    expect(screen.getByText('恢复码（无法使用通行密钥时）')).toBeTruthy();
    expect(screen.queryByText('请用通行密钥或恢复码确认是您本人')).toBeTruthy();
  });

  it('returns to the page that asked for the login, and remembers the e-mail', async () => {
    rememberReturnTo('/securitySettings');
    renderAt('/login', <LoginScreen />);
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    logIn('alice@example.com', 'Passw0rd!');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/securitySettings'));
    expect(useUserStore.getState().user).toEqual({ allowBack: false, email: 'alice@example.com' });
    expect(await fetchMock.mock.calls[0]?.[0].json()).toEqual({
      identifier: 'alice@example.com',
      password: 'Passw0rd!',
    });
  });

  it('goes to the wallet when no page asked', async () => {
    renderAt('/login', <LoginScreen />);
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    logIn('alice_1', 'Passw0rd!');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/coinTopup'));
  });

  it('offers the language switch; a choice changes the screen and is remembered', async () => {
    renderAt('/login', <LoginScreen />);
    const select = screen.getByTestId('language-switch-select') as HTMLSelectElement;
    expect(select.value).toBe('zh-CN');
    expect([...select.options].map((o) => o.value)).toEqual(['zh-CN', 'zh-TW', 'en', 'es']);
    fireEvent.change(select, { target: { value: 'es' } });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Iniciar sesión'));
    expect(localStorage.getItem('lang')).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    await changeLanguage('zh-CN');
  });
});
