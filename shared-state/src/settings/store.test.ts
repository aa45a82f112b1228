import { changeLanguage, currentLanguage } from '@cw/shared-state/i18n';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from './schema.ts';
import { SETTINGS_STORAGE_KEY, useSettings } from './store.ts';

function stored(): unknown {
  const raw = localStorage.getItem(SETTINGS_STORAGE_KEY);
  return raw === null ? null : (JSON.parse(raw) as { state: unknown }).state;
}

describe('useSettings (signed out: local settings)', () => {
  beforeEach(async () => {
    localStorage.clear();
    await changeLanguage('zh-CN');
    useSettings.setState({ ...DEFAULT_SETTINGS, source: 'local', syncStatus: 'synced', local: DEFAULT_SETTINGS });
  });
  afterEach(() => localStorage.clear());

  it('persists each change under localStorage "settings"', async () => {
    await useSettings.getState().setPriceColor('red-up');
    await useSettings.getState().setFiatCurrency('JPY');
    await useSettings.getState().setQuickBuy({ enabled: true, fiatAmount: '50.00' });
    const state = useSettings.getState();
    expect(state.priceColor).toBe('red-up');
    expect(state.fiatCurrency).toBe('JPY');
    expect(state.quickBuy).toEqual({ enabled: true, coin: 'USDT', fiatAmount: '50.00' });
    expect(stored()).toEqual({
      ...DEFAULT_SETTINGS,
      priceColor: 'red-up',
      fiatCurrency: 'JPY',
      quickBuy: state.quickBuy,
    });
  });

  it('switches the app language through changeLanguage', async () => {
    await useSettings.getState().setLanguage('en');
    expect(currentLanguage()).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(useSettings.getState().language).toBe('en');
    expect(stored()).toMatchObject({ language: 'en' });
  });

  it('follows a language chosen elsewhere', async () => {
    await changeLanguage('es');
    expect(useSettings.getState().language).toBe('es');
    expect(useSettings.getState().local.language).toBe('es');
  });

  it('reset restores the defaults but keeps the language', async () => {
    await useSettings.getState().setLanguage('zh-TW');
    await useSettings.getState().setPriceColor('red-up');
    await useSettings.getState().setQuickBuy({ enabled: true, coin: 'ETH' });
    await useSettings.getState().reset();
    expect(useSettings.getState()).toMatchObject({ ...DEFAULT_SETTINGS, language: 'zh-TW' });
  });

  it('rehydrates from storage, repairing invalid fields', async () => {
    localStorage.setItem(
      SETTINGS_STORAGE_KEY,
      JSON.stringify({
        state: { priceColor: 'red-up', fiatCurrency: 'NOPE', quickBuy: { enabled: true } },
        version: 1,
      }),
    );
    await useSettings.persist.rehydrate();
    expect(useSettings.getState()).toMatchObject({
      priceColor: 'red-up',
      fiatCurrency: 'USD',
      quickBuy: { enabled: true, coin: 'USDT', fiatAmount: '100.00' },
      language: currentLanguage(),
    });
  });
});
