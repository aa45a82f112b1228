import { useSettings } from '@cw/shared-state/settings';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupScreen, renderScreen, resetSettings } from '../../../lib/test-helpers.tsx';

vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));

const { default: PriceModeScreen } = await import('./price-mode-screen.tsx');

describe('price mode screen', () => {
  afterEach(cleanupScreen);

  describe('in zh-CN', () => {
    beforeEach(async () => {
      await resetSettings('zh-CN');
      renderScreen(<PriceModeScreen />);
      await screen.findByTestId('settings-price-mode-screen');
    });

    it('offers both colour conventions with a preview and saves the choice', async () => {
      const greenUp = screen.getByTestId('price-color-green-up');
      expect(greenUp.textContent).toContain('绿涨红跌');
      expect(greenUp.dataset.checked).toBe('true');
      expect(screen.getByTestId('price-color-red-up').textContent).toContain('红涨绿跌');
      fireEvent.click(screen.getByTestId('price-color-red-up'));
      await waitFor(() => expect(screen.getByTestId('price-color-red-up').dataset.checked).toBe('true'));
      expect(useSettings.getState().priceColor).toBe('red-up');
    });

    it('names currencies in the current language and saves the pick', async () => {
      expect(screen.getByTestId('fiat-option-USD').textContent).toContain('美元');
      expect(screen.getByTestId('fiat-option-USD').dataset.checked).toBe('true');
      fireEvent.click(screen.getByTestId('fiat-option-JPY'));
      await waitFor(() => expect(useSettings.getState().fiatCurrency).toBe('JPY'));
      expect(JSON.parse(localStorage.getItem('settings') ?? '{}').state.fiatCurrency).toBe('JPY');
    });
  });

  describe('in en', () => {
    beforeEach(async () => {
      await resetSettings('en');
      renderScreen(<PriceModeScreen />);
      await screen.findByTestId('settings-price-mode-screen');
    });

    it('filters the currency list by name, code or symbol', () => {
      const search = screen.getByPlaceholderText('Search currency');
      fireEvent.change(search, { target: { value: 'yen' } });
      expect(screen.getByTestId('fiat-option-JPY')).toBeTruthy();
      expect(screen.queryByTestId('fiat-option-USD')).toBeNull();
      fireEvent.change(search, { target: { value: 'zzz' } });
      expect(screen.getByTestId('fiat-empty').textContent).toContain('No currency matches your search');
    });
  });
});
