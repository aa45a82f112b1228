import '../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { RateText } from './rate-text.tsx';

afterEach(cleanup);

function show(props: Parameters<typeof RateText>[0]) {
  render(
    <Suspense fallback={null}>
      <RateText {...props} />
    </Suspense>,
  );
}

describe('RateText', () => {
  it('shows six significant digits and reads the other way on a tap', async () => {
    await changeLanguage('en');
    show({ from: 'USDT', to: 'BTC', rate: '0.000011119361', testId: 'rate' });
    const text = await screen.findByTestId('rate');
    expect(text.textContent).toBe('1 USDT ≈ 0.0000111193 BTC');
    const flip = screen.getByTestId('rate-flip');
    expect(flip.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(flip);
    expect(screen.getByTestId('rate').textContent).toBe('1 BTC ≈ 89,933.2 USDT');
    expect(flip.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(flip);
    expect(screen.getByTestId('rate').textContent).toBe('1 USDT ≈ 0.0000111193 BTC');
  });

  it('writes the flipped rate in the language (es: comma decimals) and "=" for a fixed rate', async () => {
    await changeLanguage('es');
    show({ from: 'ETH', to: 'USDT', rate: '3012.123456', exact: true, testId: 'rate' });
    fireEvent.click(await screen.findByTestId('rate-flip'));
    expect(screen.getByTestId('rate').textContent).toBe('1 USDT = 0,000331991 ETH');
  });

  it('a zero rate cannot be flipped', async () => {
    await changeLanguage('en');
    show({ from: 'USDT', to: 'BTC', rate: '0', testId: 'rate' });
    expect((await screen.findByTestId('rate')).textContent).toBe('1 USDT ≈ 0 BTC');
    expect(screen.queryByTestId('rate-flip')).toBeNull();
  });
});
