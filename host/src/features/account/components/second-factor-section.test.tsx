import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { json, renderAt } = await import('../test-helpers.tsx');
const { SecondFactorSection } = await import('./second-factor-section.tsx');

const OFF = { totp: false, recoveryCodesLeft: 0, reauthenticatedUntil: null };
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-DDD${'234567AB'[i % 8]}`);

beforeEach(() => fetchMock.mockReset());
afterEach(cleanup);

describe('SecondFactorSection', () => {
  it('asks for the password when the server wants a fresh proof, then shows the QR and secret, then the codes once', async () => {
    fetchMock.mockResolvedValueOnce(json(200, OFF));
    renderAt('/securitySettings', <SecondFactorSection />);
    fetchMock.mockResolvedValueOnce(json(403, { code: 'REAUTH_REQUIRED', message: 'x' }));
    fireEvent.click(await screen.findByTestId('totp-enrol'));
    const password = await screen.findByTestId('reauth-password');
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(json(200, { secret: SECRET, uri: `otpauth://totp/CW%20Wallet:alice?secret=${SECRET}` }));
    fireEvent.change(password, { target: { value: 'Passw0rd!' } });
    fireEvent.click(screen.getByTestId('factor-submit'));
    expect((await screen.findByTestId('totp-secret')).textContent).toBe(SECRET);
    expect(screen.getByTestId('totp-qr')).toBeTruthy();
    expect(await fetchMock.mock.calls[2]?.[0].json()).toEqual({ password: 'Passw0rd!' });

    fetchMock
      .mockResolvedValueOnce(json(200, { recoveryCodes: CODES }))
      .mockResolvedValueOnce(json(200, { totp: true, recoveryCodesLeft: 10, reauthenticatedUntil: null }));
    fireEvent.change(screen.getByTestId('totp-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('totp-confirm'));
    const codes = await screen.findByTestId('recovery-codes');
    expect(codes.querySelector('pre')?.textContent?.split('\n')).toEqual(CODES);
    expect(await fetchMock.mock.calls[4]?.[0].json()).toEqual({ code: '123456' });
    fireEvent.click(screen.getByTestId('recovery-codes-done'));
    await waitFor(() => expect(screen.queryByTestId('recovery-codes')).toBeNull());
    expect(screen.getByTestId('totp-remove')).toBeTruthy();
  });
});
