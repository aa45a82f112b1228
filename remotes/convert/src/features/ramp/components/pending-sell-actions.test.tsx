import '../../../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RampOrder } from '../api/ramp-api.ts';
import { checkoutLinks } from '../utils/checkout-link.ts';
import { PendingSellActions } from './pending-sell-actions.tsx';

const order = {
  id: '5f0c1d2e-0000-4000-8000-000000000001',
  side: 'sell',
  state: 'pending',
  checkoutUrl: null,
} as RampOrder;

function show() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Suspense fallback={null}>
        <PendingSellActions order={order} />
      </Suspense>
    </QueryClientProvider>,
  );
}

/** Issue 38: the server answers a sell's checkout link once; only the tab that placed it continues. */
describe('a pending sell on the order screen', () => {
  beforeEach(async () => {
    await changeLanguage('en');
    sessionStorage.clear();
  });
  afterEach(cleanup);

  it('the tab that placed it continues to the checkout with the link it kept', async () => {
    checkoutLinks.remember(order.id, 'https://sell.example/sell?signature=x');
    show();
    expect(await screen.findByTestId('ramp-continue')).toBeTruthy();
    expect(screen.getByTestId('ramp-cancel')).toBeTruthy();
    expect(screen.queryByTestId('ramp-checkout-once')).toBeNull();
  });

  it('another tab (or a reload elsewhere) is told why not and offered to cancel', async () => {
    show();
    expect((await screen.findByTestId('ramp-checkout-once')).textContent).toMatch(/only once/);
    expect(screen.queryByTestId('ramp-continue')).toBeNull();
    expect(screen.getByTestId('ramp-cancel').textContent).toMatch(/Cancel order/);
  });

  it('keeps only http(s) links', () => {
    checkoutLinks.remember('a', 'javascript:alert(1)');
    expect(checkoutLinks.recall('a')).toBeNull();
  });
});
