import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

let served = 0;
const requestQuote = vi.fn(
  async (body: { side: string; coin: string; network: string; amountMinor: string; method: string }) => {
    served += 1;
    return {
      id: `00000000-0000-4000-8000-00000000000${served}`,
      ...body,
      fiat: 'BRL',
      fiatAmountMinor: body.amountMinor,
      cryptoAmountMinor: '35709193',
      feeFiatMinor: '967',
      networkFeeMinor: '0',
      payoutKinds: [],
      // The first quote holds for 2 s (long enough to be seen held on a loaded two-core machine; at 700 ms
      // it was sometimes refreshed before the first check), the refreshed one for a minute.
      expiresAt: new Date(Date.now() + (served === 1 ? 2_000 : 60_000)).toISOString(),
      sandbox: true,
    };
  },
);
vi.mock('../api/ramp-api.ts', () => ({ requestQuote }));
const { useRampForm } = await import('./use-ramp-form.ts');

const options = {
  available: true,
  reason: null,
  country: 'BR',
  fiat: 'BRL' as const,
  sandbox: true,
  pairs: [{ coin: 'USDT' as const, network: 'ethereum' as const }],
  buyMethods: ['credit_debit_card' as const],
  payoutKinds: ['pix' as const],
  minimumFiatMinor: null,
};

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe('buy/sell form quote', () => {
  it('asks for a quote from the typed amount; an expired quote is refreshed and must be accepted again', async () => {
    const { result } = renderHook(
      () => useRampForm(options, { side: 'buy', pair: 'USDT/ethereum', amount: '200' }, () => 6, 'en'),
      { wrapper },
    );
    await waitFor(() => expect(result.current.quote?.id).toMatch(/1$/));
    expect(requestQuote).toHaveBeenCalledWith({
      side: 'buy',
      coin: 'USDT',
      network: 'ethereum',
      amountMinor: '20000',
      method: 'credit_debit_card',
    });
    expect(result.current.needsAccept).toBe(false);
    await waitFor(() => expect(result.current.quote?.id).toMatch(/2$/), { timeout: 8_000 });
    expect(result.current.needsAccept).toBe(true);
    // Still so after the form has re-rendered for a while (the clock ticks every 500 ms and the request is
    // rebuilt each render): only accepting clears it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(result.current.quote?.id).toMatch(/2$/);
    expect(result.current.needsAccept).toBe(true);
    act(() => result.current.accept());
    expect(result.current.needsAccept).toBe(false);
  });

  it('makes no request for an amount that is not one', () => {
    const { result } = renderHook(
      () => useRampForm(options, { side: 'buy', pair: 'USDT/ethereum', amount: '1.234' }, () => 6, 'en'),
      { wrapper },
    );
    expect(result.current.request).toBeNull();
  });
});
