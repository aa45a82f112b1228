import '../../../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../api/convert-api.ts';
import { holdQuote } from '../utils/held-quote.ts';
import { ExpiredDialog } from './expired-dialog.tsx';
import { PreviewSheet } from './preview-sheet.tsx';

const QUOTE: Quote = {
  quoteId: '00000000-0000-4000-8000-000000000001',
  from: 'USDT',
  to: 'BTC',
  amountMinor: '25000000',
  rate: '0.000011357881231234',
  feeMinor: '25000',
  receiveMinor: '28366',
  minMinor: '1000000',
  maxMinor: '100000000000',
  source: 'sandbox',
  createdAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-01T00:00:10.000Z',
};
const quote = holdQuote(QUOTE);

/** The catalogue's decimals of the quote's coins (server/src/modules/catalogue). */
const coins = [
  { code: 'USDT', decimals: 6 },
  { code: 'BTC', decimals: 8 },
] as const;

describe('rate expired and updated dialog', () => {
  beforeEach(async () => {
    await changeLanguage('en');
  });
  afterEach(cleanup);

  it('shows the new rate and amount, and converts only on accept', async () => {
    const onAccept = vi.fn();
    const onCancel = vi.fn();
    render(
      <Suspense fallback={null}>
        <ExpiredDialog quote={quote} busy={false} coins={coins} onAccept={onAccept} onCancel={onCancel} />
      </Suspense>,
    );
    expect((await screen.findByTestId('rate-expired-title')).textContent).toBe('Rate expired and updated');
    expect(screen.getByTestId('rate-expired-rate').textContent).toBe('1 USDT ≈ 0.0000113578 BTC');
    expect(screen.getByTestId('rate-expired-receive').textContent).toBe('0.00028366 BTC');
    fireEvent.click(screen.getByTestId('rate-expired-cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onAccept).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('rate-expired-accept'));
    expect(onAccept).toHaveBeenCalledWith(quote);
  });

  it('counts down from the server TTL, whatever the local clock says', () => {
    // created/expires are 2030 on the server; locally the 10 s start now (held here, not when the file
    // loaded: the test before it can take seconds on a loaded machine).
    const held = holdQuote(QUOTE);
    expect(held.expiresAtMs - Date.now()).toBeGreaterThan(9_000);
    expect(held.expiresAtMs - Date.now()).toBeLessThanOrEqual(10_000);
  });
});

describe('convert preview', () => {
  beforeEach(async () => {
    await changeLanguage('es');
  });
  afterEach(cleanup);

  it('shows what the user pays and receives, the rate and the fee, and converts only on confirm', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <Suspense fallback={null}>
        <PreviewSheet quote={quote} busy={false} coins={coins} onConfirm={onConfirm} onCancel={onCancel} />
      </Suspense>,
    );
    expect((await screen.findByTestId('convert-preview-pay')).textContent).toBe('25 USDT');
    expect(screen.getByTestId('convert-preview-receive').textContent).toBe('0,00028366 BTC');
    expect(screen.getByTestId('convert-preview-fee').textContent).toBe('0,025 USDT');
    expect(screen.getByTestId('convert-preview-countdown').textContent).toMatch(/^La cotización caduca en \d+ s$/);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('convert-preview-confirm'));
    expect(onConfirm).toHaveBeenCalledWith(quote);
  });
});
