import { useSettings } from '@cw/shared-state/settings';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupScreen, renderScreen, resetSettings } from '../../../lib/test-helpers.tsx';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));

const { default: HubScreen } = await import('./hub-screen.tsx');

async function openAmountDialog() {
  fireEvent.click(await screen.findByTestId('settings-quick-buy'));
  return screen.findByTestId('dialog-input');
}

describe('settings hub', () => {
  beforeEach(async () => {
    await resetSettings('zh-CN');
    navigate.mockClear();
    renderScreen(<HubScreen />);
    await screen.findByTestId('settings-hub');
  });
  afterEach(cleanupScreen);

  it('shows every row, translated, with the current values', () => {
    expect(screen.getByRole('heading', { name: '设置' })).toBeTruthy();
    expect(screen.getByTestId('settings-language').textContent).toContain('简体中文');
    expect(screen.getByTestId('settings-price-mode').textContent).toContain('绿涨红跌 · USD');
    expect(screen.getByTestId('settings-quick-buy-amount').textContent).toBe('US$100.00');
    expect(screen.getByTestId('build-id').textContent).toBe('版本 test');
    expect(screen.getByTestId('copy-build').textContent).toBe('复制');
    expect(screen.getByTestId('settings-source').textContent).toBe('保存在本设备');
  });

  it('navigates to language, price mode and help', () => {
    fireEvent.click(screen.getByTestId('settings-language'));
    fireEvent.click(screen.getByTestId('settings-price-mode'));
    fireEvent.click(screen.getByTestId('settings-help'));
    expect(navigate.mock.calls).toEqual([['/language'], ['/priceMode'], ['/helpCenter']]);
  });

  it('quick-buy amount: the input dialog saves a valid amount', async () => {
    const input = (await openAmountDialog()) as HTMLInputElement;
    expect(input.value).toBe('100.00');
    expect(screen.getByText('范围 US$1.00 至 US$999,999,999.99，最多 2 位小数')).toBeTruthy();
    fireEvent.change(input, { target: { value: ' 250.5 ' } });
    fireEvent.click(screen.getByTestId('dialog-confirm'));
    expect(await screen.findByText('快捷买币金额已保存')).toBeTruthy();
    expect(useSettings.getState().quickBuy.fiatAmount).toBe('250.50');
    expect(screen.getByTestId('settings-quick-buy-amount').textContent).toBe('US$250.50');
    expect(JSON.parse(localStorage.getItem('settings') ?? '{}').state.quickBuy.fiatAmount).toBe('250.50');
  });

  it('quick-buy amount: bad input keeps the dialog open with the error and what was typed', async () => {
    const input = (await openAmountDialog()) as HTMLInputElement;
    fireEvent.change(input, { target: { value: '12abc' } });
    fireEvent.click(screen.getByTestId('dialog-confirm'));
    expect((await screen.findByTestId('dialog-error')).textContent).toBe(
      '请输入数字，例如 100 或 99.50（仅限数字和一个小数点）',
    );
    expect(screen.getByTestId('dialog')).toBeTruthy();
    expect((screen.getByTestId('dialog-input') as HTMLInputElement).value).toBe('12abc');
    expect(useSettings.getState().quickBuy.fiatAmount).toBe('100.00');
    // Corrected in place, it saves.
    fireEvent.change(screen.getByTestId('dialog-input'), { target: { value: '120' } });
    expect(screen.queryByTestId('dialog-error')).toBeNull();
    fireEvent.click(screen.getByTestId('dialog-confirm'));
    await waitFor(() => expect(useSettings.getState().quickBuy.fiatAmount).toBe('120.00'));
  });

  it('quick-buy amount: cancel changes nothing', async () => {
    fireEvent.change(await openAmountDialog(), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
    expect(useSettings.getState().quickBuy.fiatAmount).toBe('100.00');
  });

  it('quick-buy switch turns quick buying on', async () => {
    const toggle = screen.getByTestId('settings-quick-buy-toggle');
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(await screen.findByText('已开启快捷买币')).toBeTruthy();
    expect(useSettings.getState().quickBuy.enabled).toBe(true);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
  });

  it('reset: cancel keeps the settings, confirm restores the defaults', async () => {
    await act(() => useSettings.getState().setPriceColor('red-up'));
    fireEvent.click(screen.getByTestId('settings-reset'));
    expect(await screen.findByText(/确定将设置恢复为默认吗/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
    expect(useSettings.getState().priceColor).toBe('red-up');

    fireEvent.click(screen.getByTestId('settings-reset'));
    fireEvent.click(await screen.findByTestId('dialog-confirm'));
    expect(await screen.findByText('已恢复默认设置')).toBeTruthy();
    expect(useSettings.getState().priceColor).toBe('green-up');
  });

  it('copy-build copies the build id and says so', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByTestId('copy-build'));
    expect(await screen.findByText('复制成功')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('test');
  });
});
