import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { useSession, useUserStore } = await import('@cw/shared-state/session');
const { json, renderAt } = await import('../test-helpers.tsx');
const { default: LoginScreen } = await import('./login-screen.tsx');

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
const PENDING = { state: 'pending', emailMasked: 'al***@example.com', expiresAt: null, mailed: true };

/** Answers by route (the screen polls the status while other requests go out). */
function serve(routes: Record<string, () => Response>) {
  fetchMock.mockImplementation(async (request: Request) => {
    const key = `${request.method} ${new URL(request.url).pathname}`;
    const answer = routes[key];
    if (!answer) throw new Error(`unexpected ${key}`);
    return answer();
  });
}

function logIn() {
  fireEvent.change(screen.getByTestId('login-identifier'), { target: { value: 'alice_1' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Passw0rd!' } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

beforeEach(() => {
  fetchMock.mockReset();
  sessionStorage.clear();
  useSession.setState({ status: 'anonymous', me: null });
  useUserStore.setState({ user: { allowBack: false, email: '' } });
});
afterEach(cleanup);

describe('new-device confirmation on the login screen', () => {
  it('a new browser is asked for the e-mailed code; the right code signs in', async () => {
    const bodies: unknown[] = [];
    serve({
      'POST /api/auth/login': () => json(202, { deviceConfirmationRequired: true }),
      'GET /api/auth/device': () => json(200, PENDING),
    });
    renderAt('/login', <LoginScreen />);
    logIn();
    expect(await screen.findByTestId('device-confirmation')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('device-confirmation-lead').textContent).toContain('al***@example.com'),
    );
    expect(useSession.getState().status).toBe('anonymous');
    serve({
      'GET /api/auth/device': () => json(200, PENDING),
      'POST /api/auth/device/confirm': () => json(400, { code: 'WRONG_VERIFICATION_CODE', message: 'no' }),
    });
    fireEvent.change(screen.getByTestId('device-code'), { target: { value: '12a3456' } });
    expect((screen.getByTestId('device-code') as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByTestId('device-confirm'));
    await waitFor(() => expect((screen.getByTestId('device-code') as HTMLInputElement).value).toBe(''));
    serve({
      'GET /api/auth/device': () => json(200, PENDING),
      'POST /api/auth/device/confirm': () => json(200, { user: ME }),
    });
    fetchMock.mockImplementationOnce(async (request: Request) => {
      bodies.push(await request.clone().json());
      return json(200, { user: ME });
    });
    fireEvent.change(screen.getByTestId('device-code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByTestId('device-confirm'));
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
    expect(bodies).toEqual([{ code: '654321' }]);
  });

  it('moves on by itself when the mail link was opened on another device', async () => {
    serve({
      'POST /api/auth/login': () => json(202, { deviceConfirmationRequired: true }),
      'GET /api/auth/device': () => json(200, { state: 'none', emailMasked: null, expiresAt: null, mailed: false }),
      'GET /api/me': () => json(200, ME),
    });
    renderAt('/login', <LoginScreen />);
    logIn();
    await waitFor(() => expect(useSession.getState().status).toBe('authenticated'));
  });

  it('goes back to the password form when the wait ended without an approval', async () => {
    serve({
      'POST /api/auth/login': () => json(202, { deviceConfirmationRequired: true }),
      'GET /api/auth/device': () => json(200, { state: 'none', emailMasked: null, expiresAt: null, mailed: false }),
      'GET /api/me': () => json(401, { code: 'UNAUTHENTICATED', message: 'no' }),
    });
    renderAt('/login', <LoginScreen />);
    logIn();
    expect(await screen.findByTestId('login-submit')).toBeTruthy();
    expect(useSession.getState().status).toBe('anonymous');
  });
});
