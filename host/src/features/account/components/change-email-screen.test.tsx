import { useSession } from '@cw/shared-state/session';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { json, renderAt } = await import('../test-helpers.tsx');
const { default: ChangeEmailScreen } = await import('./change-email-screen.tsx');

const ME = {
  id: '00000000-0000-4000-8000-000000000001',
  username: 'alice',
  nickname: null,
  email: 'alice@example.com',
  emailMasked: 'al***@example.com',
  country: 'CN',
  hasFundPassword: false,
  createdAt: '2030-01-01T00:00:00.000Z',
};
const status = (on: boolean) => ({ totp: on, passkeys: 0, recoveryCodesLeft: on ? 10 : 0, reauthenticatedUntil: null });
const NEW = { ...ME, email: 'new@example.com', emailMasked: 'ne***@example.com' };

beforeEach(() => {
  fetchMock.mockReset();
  useSession.setState({ status: 'authenticated', me: ME });
});
afterEach(cleanup);

const bodyOf = async (n: number) => fetchMock.mock.calls[n]?.[0].json();
const urlOf = (n: number) => new URL(fetchMock.mock.calls[n]?.[0].url ?? '').pathname;

describe('ChangeEmailScreen', () => {
  it('asks for the password when the proof is stale, sends the code to the new address, then changes it', async () => {
    fetchMock.mockResolvedValueOnce(json(200, status(false)));
    renderAt('/changeEmail', <ChangeEmailScreen />);
    expect((await screen.findByTestId('change-email-current')).textContent).toContain('al***@example.com');
    fireEvent.change(screen.getByTestId('change-email-new'), { target: { value: 'New@Example.com ' } });
    fetchMock.mockResolvedValueOnce(json(403, { code: 'REAUTH_REQUIRED', message: 'x' }));
    fireEvent.click(screen.getByTestId('change-email-send'));
    const password = await screen.findByTestId('change-email-reauth-password');
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(json(202, { resendAfterSeconds: 60, expiresInSeconds: 600 }));
    fireEvent.change(password, { target: { value: 'Passw0rd!' } });
    fireEvent.click(screen.getByTestId('change-email-reauth-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
    expect(urlOf(2)).toBe('/api/me/security/reauth');
    expect(await bodyOf(2)).toEqual({ password: 'Passw0rd!' });
    expect(urlOf(3)).toBe('/api/me/security/email/code');
    expect(await bodyOf(3)).toMatchObject({ newEmail: 'New@Example.com' });

    fireEvent.change(await screen.findByTestId('change-email-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('change-email-end-others'));
    fetchMock
      .mockResolvedValueOnce(json(200, { user: NEW, otherSessionsEnded: 0 }))
      .mockResolvedValue(json(200, { user: NEW }));
    fireEvent.click(screen.getByTestId('change-email-submit'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/securitySettings'));
    expect(urlOf(4)).toBe('/api/me/security/email');
    expect(await bodyOf(4)).toEqual({ newEmail: 'New@Example.com', code: '123456', endOtherSessions: false });
  });

  it('sends the authenticator code when a factor is on, and shows a taken address under the field', async () => {
    fetchMock.mockResolvedValueOnce(json(200, status(true)));
    renderAt('/changeEmail', <ChangeEmailScreen />);
    const factor = await screen.findByTestId('change-email-factor');
    fireEvent.change(screen.getByTestId('change-email-new'), { target: { value: 'taken@example.com' } });
    fireEvent.change(screen.getByTestId('change-email-code'), { target: { value: '123456' } });
    fireEvent.change(factor, { target: { value: '654321' } });
    fetchMock.mockResolvedValueOnce(json(409, { code: 'EMAIL_EXISTS', message: 'x' }));
    fireEvent.click(screen.getByTestId('change-email-submit'));
    expect(await screen.findByTestId('field-error-newEmail')).toBeTruthy();
    expect(await bodyOf(1)).toEqual({
      newEmail: 'taken@example.com',
      code: '123456',
      endOtherSessions: true,
      totpCode: '654321',
    });
  });

  it('checks the address before asking for a code', async () => {
    fetchMock.mockResolvedValueOnce(json(200, status(false)));
    renderAt('/changeEmail', <ChangeEmailScreen />);
    fireEvent.change(await screen.findByTestId('change-email-new'), { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByTestId('change-email-send'));
    expect(await screen.findByTestId('field-error-newEmail')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
