import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

/**
 * A user with an authenticator app (or a passkey) must be able to sell from the screen: the server
 * asks the factor on sells (issue 38), so the form carries it. Before, it sent only the fund password
 * and the e-mail code, and every sell of such a user answered FACTOR_REQUIRED.
 */
const placeOrder = vi.fn(async (_body: Record<string, unknown>) => ({ id: 'o1', checkoutUrl: null }));
let factors = { totp: true, passkeys: 0 };
const passkeyAnswer = vi.fn(async () => ({ id: 'cred', rawId: 'cred', type: 'public-key' }));
vi.mock('../api/ramp-api.ts', async () => {
  const { useMutation } = await import('@tanstack/react-query');
  return { usePlaceOrder: () => useMutation({ mutationFn: placeOrder }) };
});
vi.mock('../api/second-factor.ts', async () => {
  const { useQuery } = await import('@tanstack/react-query');
  return { useSecondFactor: () => useQuery({ queryKey: ['factors', factors], queryFn: async () => factors }) };
});
vi.mock('@cw/shared-state/passkeys', () => ({ passkeyAnswer, passkeysSupported: () => true }));
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));
vi.mock('@cw/shared-state/session', () => ({
  useSession: (select: (s: { me: { hasFundPassword: boolean } }) => unknown) =>
    select({ me: { hasFundPassword: false } }),
}));
const { useSubmit } = await import('./use-submit.ts');

const quote = {
  id: 'q1',
  side: 'sell',
  payoutKinds: ['pix'],
  coin: 'USDT',
};
const form = {
  quote,
  needsAccept: false,
  values: { terms: true, payoutMethodId: 'm1' },
  refresh: vi.fn(),
} as unknown as Parameters<typeof useSubmit>[0];

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe('sell submit with a second factor', () => {
  it('sends the authenticator code the user typed', async () => {
    factors = { totp: true, passkeys: 0 };
    placeOrder.mockClear();
    const verification = { fundPassword: '', emailCode: '123456', factorCode: '654321' };
    const { result } = renderHook(() => useSubmit(form, [], verification), { wrapper });
    await waitFor(() => expect(result.current.factor).toEqual(factors));
    await act(async () => result.current.submit());
    await waitFor(() => expect(placeOrder).toHaveBeenCalled());
    expect(placeOrder.mock.calls[0]?.[0]).toMatchObject({ emailCode: '123456', totpCode: '654321' });
  });

  it('with a passkey and no code typed, confirms with the passkey', async () => {
    factors = { totp: false, passkeys: 1 };
    placeOrder.mockClear();
    const verification = { fundPassword: '', emailCode: '123456', factorCode: '' };
    const { result } = renderHook(() => useSubmit(form, [], verification), { wrapper });
    await waitFor(() => expect(result.current.factor).toEqual(factors));
    await act(async () => result.current.submit());
    await waitFor(() => expect(placeOrder).toHaveBeenCalled());
    expect(passkeyAnswer).toHaveBeenCalled();
    expect(placeOrder.mock.calls[0]?.[0]).toMatchObject({ emailCode: '123456', passkey: { id: 'cred' } });
  });
});
