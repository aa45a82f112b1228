import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { useSession } = await import('@cw/shared-state/session');
const { json, renderAt } = await import('../test-helpers.tsx');
const { RegisterScreen } = await import('./register-screen.tsx');

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

function type(testId: string, value: string) {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

beforeEach(() => {
  fetchMock.mockReset();
  localStorage.clear();
  useSession.setState({ status: 'anonymous', me: null });
});
afterEach(cleanup);

describe('RegisterScreen', () => {
  it('shows a translated inline message per bad field and sends nothing', async () => {
    renderAt('/signIn', <RegisterScreen />);
    type('signup-username', 'x');
    type('signup-email', 'bad@');
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByTestId('field-error-username')).toHaveProperty(
      'textContent',
      '用户名须为3-20位字母、数字或下划线',
    );
    expect(screen.getByTestId('field-error-email').textContent).toBe('请输入有效的邮箱地址');
    expect(screen.getByTestId('field-error-password').textContent).toBe('请输入密码');
    expect(screen.getByTestId('field-error-country').textContent).toBe('请选择居住国家/地区');
    expect(screen.getByTestId('field-error-code').textContent).toBe('请输入验证码');
    expect(screen.getByTestId('field-error-agreement').textContent).toBe('请阅读并同意用户协议');
    expect(screen.getByTestId('signup-username').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('uses the autocomplete hints password managers need', () => {
    renderAt('/signIn', <RegisterScreen />);
    expect(screen.getByTestId('signup-username').getAttribute('autocomplete')).toBe('username');
    expect(screen.getByTestId('signup-email').getAttribute('autocomplete')).toBe('email');
    expect(screen.getByTestId('signup-password').getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByTestId('signup-confirm').getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByTestId('signup-code').getAttribute('autocomplete')).toBe('one-time-code');
  });

  it('sends the code only for a valid e-mail and starts the 60 s countdown', async () => {
    renderAt('/signIn', <RegisterScreen />);
    fireEvent.click(screen.getByTestId('signup-send-code'));
    expect(await screen.findByTestId('field-error-email')).toHaveProperty('textContent', '请输入邮箱');
    expect(fetchMock).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(json(202, { resendAfterSeconds: 60, expiresInSeconds: 600 }));
    type('signup-email', 'alice@example.com');
    fireEvent.click(screen.getByTestId('signup-send-code'));
    await waitFor(() => expect(screen.getByTestId('signup-send-code').textContent).toBe('60秒后重发'));
    expect(screen.getByTestId('signup-send-code')).toHaveProperty('disabled', true);
    const request = fetchMock.mock.calls[0]?.[0];
    expect(await request?.json()).toEqual({ purpose: 'register', email: 'alice@example.com', language: 'zh-CN' });
  });

  it('registers and goes to /appDown; a taken user name is shown on its field', async () => {
    renderAt('/signIn', <RegisterScreen />);
    type('signup-username', 'alice_1');
    fireEvent.click(screen.getByTestId('signup-country'));
    // The picker lists every country in a popup: over findBy's 1 s default on a loaded two-core machine.
    fireEvent.click(await screen.findByTestId('country-option-ES', {}, { timeout: 10_000 }));
    type('signup-password', 'Passw0rd!');
    type('signup-confirm', 'Passw0rd!');
    type('signup-email', 'alice@example.com');
    type('signup-code', '123456');
    fireEvent.click(screen.getByTestId('signup-agree'));

    fetchMock.mockResolvedValueOnce(json(409, { code: 'USERNAME_EXISTS', message: 'taken' }));
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(await screen.findByTestId('field-error-username')).toHaveProperty('textContent', '用户名已存在');

    fetchMock.mockResolvedValueOnce(json(201, { user: ME }));
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/appDown'));
    expect(useSession.getState()).toMatchObject({ status: 'authenticated', me: ME });
    const body = await fetchMock.mock.calls[1]?.[0].json();
    expect(body).toEqual({
      username: 'alice_1',
      country: 'ES',
      password: 'Passw0rd!',
      confirmPassword: 'Passw0rd!',
      email: 'alice@example.com',
      code: '123456',
      agreementAccepted: true,
    });
  });
});
