import { SINGLE_TOAST_DURATION_MS } from './timing.ts';

export interface SingleToastOptions {
  icon?: 'success' | 'fail' | 'loading';
  /** Default: antd-mobile's 2000 ms. */
  duration?: number;
}

/**
 * One toast at a time (a new one replaces the previous), with antd-mobile's
 * own Toast and its 2000 ms default. antd-mobile's Toast loads on first use.
 */
export async function showSingleToast(content: string, options: SingleToastOptions = {}): Promise<void> {
  const { Toast } = await import('antd-mobile');
  Toast.show({ content, icon: options.icon, duration: options.duration ?? SINGLE_TOAST_DURATION_MS });
}
