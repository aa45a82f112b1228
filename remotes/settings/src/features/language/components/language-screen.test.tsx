import { currentLanguage } from '@cw/shared-state/i18n';
import { useSettings } from '@cw/shared-state/settings';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupScreen, renderScreen, resetSettings } from '../../../lib/test-helpers.tsx';

vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));

const { default: LanguageScreen } = await import('./language-screen.tsx');

describe('language screen', () => {
  beforeEach(async () => {
    await resetSettings('zh-CN');
    renderScreen(<LanguageScreen />);
    await screen.findByTestId('settings-language-screen');
  });
  afterEach(cleanupScreen);

  it('lists each language in its own name, the current one checked', () => {
    const names = ['zh-CN', 'zh-TW', 'en', 'es'].map(
      (code) => screen.getByTestId(`language-option-${code}`).textContent,
    );
    expect(names).toEqual(['简体中文', '繁體中文', 'English', 'Español']);
    expect(screen.getByTestId('language-option-zh-CN').dataset.checked).toBe('true');
    expect(screen.getByTestId('language-option-en').dataset.checked).toBe('false');
  });

  it('switches the language at once and remembers it locally', async () => {
    fireEvent.click(screen.getByTestId('language-option-en'));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Language' })).toBeTruthy());
    expect(currentLanguage()).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(useSettings.getState().language).toBe('en');
    expect(screen.getByTestId('language-option-en').dataset.checked).toBe('true');
  });
});
