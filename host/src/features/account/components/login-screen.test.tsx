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
  localStorage.removeItem('login.codeIdentifiers');
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

  it('a returning device: the code field shows for an identifier that needed it, and goes with the password', async () => {
    renderAt('/login', <LoginScreen />);
    fetchMock
      .mockResolvedValueOnce(json(202, { factorRequired: true }))
      .mockResolvedValueOnce(json(200, { totp: true, passkey: false, recoveryCode: true }));
    // A first-time device: no code field, today's two steps.
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'Alice_1' } });
    await waitFor(() => expect(screen.queryByTestId('login-code')).toBeNull());
    logIn('Alice_1', 'Passw0rd!');
    await screen.findByTestId('login-factor-code');
    await waitFor(() => expect(localStorage.getItem('login.codeIdentifiers')).toMatch(/^\["[0-9a-f]{32}"\]$/));
    expect(localStorage.getItem('login.codeIdentifiers')).not.toMatch(/alice/i);
    cleanup();

    // Next time (another spelling of the same identifier): the code field, one request.
    renderAt('/login', <LoginScreen />);
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'someone_else' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('login-code')).toBeNull();
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: ' alice_1 ' } });
    const code = await screen.findByTestId('login-code');
    expect(screen.getByText('身份验证器验证码')).toBeTruthy();
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    fireEvent.change(code, { target: { value: '123456' } });
    logIn(' alice_1 ', 'Passw0rd!');
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(await fetchMock.mock.calls[2]?.[0].json()).toEqual({
      identifier: 'alice_1',
      password: 'Passw0rd!',
      totpCode: '123456',
    });
  });

  it('a refused code sent with the password goes to the code step with the error; the right code signs in', async () => {
    const { rememberNeedsCode } = await import('../utils/code-identifiers.ts');
    await rememberNeedsCode('alice_1', true);
    renderAt('/login', <LoginScreen />);
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'alice_1' } });
    fireEvent.change(await screen.findByTestId('login-code'), { target: { value: '654321' } });
    fetchMock.mockResolvedValueOnce(
      json(400, { code: 'WRONG_FACTOR_CODE', message: 'no', details: { attemptsLeft: 4 } }),
    );
    logIn('alice_1', 'Passw0rd!');
    const field = await screen.findByTestId('login-factor-code');
    expect(field.dataset.factor).toBe('totp');
    expect(screen.queryByTestId('field-error-password')).toBeNull();
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    fireEvent.change(field, { target: { value: '111222' } });
    fireEvent.click(screen.getByTestId('login-factor-submit'));
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
    expect(fetchMock.mock.calls[1]?.[0].url).toMatch(/\/api\/auth\/login\/factor$/);
    expect(await fetchMock.mock.calls[1]?.[0].json()).toEqual({ totpCode: '111222' });
  });

  it('a wrong password drops the typed code: the retry does not send it again', async () => {
    const { rememberNeedsCode } = await import('../utils/code-identifiers.ts');
    await rememberNeedsCode('alice_1', true);
    renderAt('/login', <LoginScreen />);
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'alice_1' } });
    fireEvent.change(await screen.findByTestId('login-code'), { target: { value: '123456' } });
    fetchMock.mockResolvedValueOnce(json(401, { code: 'INVALID_CREDENTIALS', message: 'no' }));
    logIn('alice_1', 'Wrong_pass1');
    await screen.findByTestId('field-error-password');
    expect(screen.getByTestId('login-code')).toHaveProperty('value', '');
    fetchMock.mockResolvedValueOnce(json(202, { factorRequired: true }));
    fetchMock.mockResolvedValueOnce(json(200, { totp: true, passkey: false, recoveryCode: true }));
    logIn('alice_1', 'Passw0rd!');
    await screen.findByTestId('login-factor-code');
    expect(await fetchMock.mock.calls[1]?.[0].json()).toEqual({ identifier: 'alice_1', password: 'Passw0rd!' });
  });

  it('a code typed for one identifier is not sent with another', async () => {
    const { rememberNeedsCode } = await import('../utils/code-identifiers.ts');
    await rememberNeedsCode('alice_1', true);
    await rememberNeedsCode('bob_2', true);
    renderAt('/login', <LoginScreen />);
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'alice_1' } });
    fireEvent.change(await screen.findByTestId('login-code'), { target: { value: '123456' } });
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'bob_2' } });
    fetchMock.mockResolvedValueOnce(json(202, { factorRequired: true }));
    fetchMock.mockResolvedValueOnce(json(200, { totp: true, passkey: false, recoveryCode: true }));
    logIn('bob_2', 'Passw0rd!');
    await screen.findByTestId('login-factor-code');
    expect(await fetchMock.mock.calls[0]?.[0].json()).toEqual({ identifier: 'bob_2', password: 'Passw0rd!' });
  });

  it('forgets the identifier once a sign-in without a code needs none; an empty field keeps two steps', async () => {
    const { needsCode, rememberNeedsCode } = await import('../utils/code-identifiers.ts');
    await rememberNeedsCode('alice_1', true);
    renderAt('/login', <LoginScreen />);
    fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'alice_1' } });
    await screen.findByTestId('login-code');
    fetchMock.mockResolvedValueOnce(json(200, { user: ME }));
    logIn('alice_1', 'Passw0rd!');
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
    expect(await fetchMock.mock.calls[0]?.[0].json()).toEqual({ identifier: 'alice_1', password: 'Passw0rd!' });
    await waitFor(async () => expect(await needsCode('alice_1')).toBe(false));
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
