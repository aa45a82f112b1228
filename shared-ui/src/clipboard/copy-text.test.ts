import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetToasts, toastStore } from '../toast/index.ts';
import { copyText } from './index.ts';

describe('copyText', () => {
  afterEach(() => resetToasts());

  it('copies with navigator.clipboard and queues the translated notice', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await expect(copyText('0xabc', { alertType: 2 })).resolves.toBe(true);
    expect(writeText).toHaveBeenCalledWith('0xabc');
    expect(toastStore.getState().items).toMatchObject([{ type: 'text', message: '复制成功', alertType: 2 }]);
    vi.unstubAllGlobals();
  });

  it('falls back to a textarea when the Clipboard API fails', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) },
    });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    await expect(copyText('addr')).resolves.toBe(true);
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(toastStore.getState().items).toMatchObject([{ message: '复制成功', alertType: 1 }]);
    expect(document.querySelector('textarea')).toBeNull();
    vi.unstubAllGlobals();
  });

  it('tells the user when copying is impossible', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    await expect(copyText('addr')).resolves.toBe(false);
    expect(toastStore.getState().items).toMatchObject([{ type: 'fail', message: '复制失败，请手动复制' }]);
    vi.unstubAllGlobals();
  });
});
