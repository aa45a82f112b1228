import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});
const ANSWER = { id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} };
vi.mock('@cw/shared-state/passkeys', () => ({
  passkeysSupported: () => true,
  passkeyAnswer: vi.fn(async () => ANSWER),
}));

const { json, renderAt } = await import('../test-helpers.tsx');
const { FreezeSection } = await import('./freeze-section.tsx');

const FROZEN = { frozen: true, frozenAt: '2030-01-02T03:04:05.000Z', thawsAt: null };

beforeEach(() => fetchMock.mockReset());
afterEach(cleanup);

describe('FreezeSection', () => {
  it('a passkey-only owner unfreezes with the password, the e-mail code and a passkey instead of a code', async () => {
    fetchMock.mockResolvedValueOnce(json(200, FROZEN));
    renderAt('/securitySettings', <FreezeSection />);
    fireEvent.change(await screen.findByTestId('unfreeze-password'), { target: { value: 'Passw0rd!' } });
    fireEvent.change(screen.getByTestId('unfreeze-email-code'), { target: { value: '123456' } });
    fetchMock.mockResolvedValueOnce(json(200, { ...FROZEN, thawsAt: '2030-01-03T03:04:05.000Z' }));
    fireEvent.click(screen.getByTestId('unfreeze-passkey'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const request = fetchMock.mock.calls[1]?.[0] as Request;
    expect(new URL(request.url).pathname).toBe('/api/me/security/freeze/unfreeze');
    expect(await request.json()).toEqual({ password: 'Passw0rd!', emailCode: '123456', passkey: ANSWER });
    expect((await screen.findByTestId('freeze-state')).textContent).toBeTruthy();
  });
});
