import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TapAmount } from './tap-amount.tsx';

const ETH = { decimals: 18, displayDecimals: 8, displayDecimalsAtOne: 8 };

afterEach(cleanup);

describe('TapAmount', () => {
  it('shows the display precision, and the full value on a tap', () => {
    render(<TapAmount minor="51661834245968354" coin={ETH} code="ETH" testId="amt" />);
    const amount = screen.getByTestId('amt');
    expect(amount.textContent).toBe('0.05166183 ETH');
    expect(amount.getAttribute('title')).toBe('0.051661834245968354 ETH');
    fireEvent.click(amount);
    expect(amount.textContent).toBe('0.051661834245968354 ETH');
  });

  it('is plain text when nothing is hidden', () => {
    render(<TapAmount minor="50000000000000000" coin={ETH} code="ETH" testId="amt" />);
    expect(screen.getByTestId('amt').tagName).toBe('SPAN');
    expect(screen.getByTestId('amt').textContent).toBe('0.05 ETH');
  });
});

describe('TapAmount of a charge', () => {
  it('rounds a fee up, so it is never shown smaller than it is', () => {
    render(<TapAmount minor="1666666666666667" coin={ETH} code="ETH" testId="fee" rounding="up" />);
    expect(screen.getByTestId('fee').textContent).toBe('0.00166667 ETH');
  });
});
