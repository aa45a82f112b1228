import '../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The screens read ?id= through the host's router; here a link that has none.
vi.mock('@cw/shared-state/router', () => ({
  useSearchParams: () => [new URLSearchParams(''), () => undefined],
  useNavigate: () => () => undefined,
  useLocation: () => ({ pathname: '/', search: '', hash: '', state: null, key: 'default' }),
  Link: ({ children }: { children: unknown }) => children,
}));

const { default: RampOrderScreen } = await import('./ramp/components/order-screen.tsx');
const { default: ExchangeOrderScreen } = await import('./exchange/components/order-screen.tsx');
const { default: ExchangeRecordScreen } = await import('./exchange/components/record-screen.tsx');
const { default: ConvertDetailScreen } = await import('./convert/components/detail-screen.tsx');

const fetchMock = vi.fn(async (_input: RequestInfo | URL) => new Response('{}', { status: 500 }));

/** A detail link without its id has nothing to ask for (the query is off): no spinner for ever, no retry. */
describe.each([
  ['/buySell/order', RampOrderScreen],
  ['/exchange/order', ExchangeOrderScreen],
  ['/exchange/record', ExchangeRecordScreen],
  ['/convert/detail', ConvertDetailScreen],
] as [string, ComponentType][])('%s without an id', (_path, Screen) => {
  beforeEach(async () => {
    await changeLanguage('en');
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it('shows the empty state, not the spinner, and asks the server for no order', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Screen />
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('state-empty')).toBeTruthy();
    expect(screen.queryByTestId('state-loading')).toBeNull();
    // The exchange screens still read the pairs catalogue; no order is asked for.
    const urls = fetchMock.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
    expect(urls.filter((url) => /\/(orders|conversions)/.test(url))).toEqual([]);
  });
});
