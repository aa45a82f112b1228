import '../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));
const { TradeSwitch } = await import('./trade-switch.tsx');

beforeEach(async () => {
  navigate.mockClear();
  await changeLanguage('en');
});
afterEach(cleanup);

describe('Convert | Exchange switch', () => {
  it('marks the current mode and switches to the other in place', async () => {
    render(
      <Suspense fallback={null}>
        <TradeSwitch current="convert" />
      </Suspense>,
    );
    const convert = await screen.findByTestId('trade-switch-convert');
    expect(convert.getAttribute('aria-current')).toBe('page');
    expect(convert.textContent).toBe('Convert');
    const exchange = screen.getByTestId('trade-switch-exchange');
    expect(exchange.textContent).toBe('Exchange');
    fireEvent.click(convert);
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(exchange);
    expect(navigate).toHaveBeenCalledWith('/exchange', { replace: true });
  });
});
