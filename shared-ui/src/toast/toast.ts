import { sanitizeHtml } from '../html/sanitize.ts';
import { pushToast, type ToastHandle, type ToastOptions, toastStore } from './toast-store.ts';

function setMessage(id: number, message: string): void {
  toastStore.setState((state) => ({
    items: state.items.map((item) => (item.id === id ? { ...item, message } : item)),
  }));
}

/**
 * The stacked message list, usable from anywhere (host, remotes, services).
 * `<ToastHost />` (mounted once by the host) renders it.
 */
export const toast = {
  text: (message: string, options?: ToastOptions): ToastHandle => pushToast('text', message, options),
  success: (message: string, options?: ToastOptions): ToastHandle => pushToast('success', message, options),
  fail: (message: string, options?: ToastOptions): ToastHandle => pushToast('fail', message, options),
  /** Stays until `handle.close()` unless a duration is given. */
  loading: (message = '', options?: ToastOptions): ToastHandle => pushToast('loading', message, options),
  /** HTML is sanitised with DOMPurify before it is shown. */
  html: (html: string, options?: ToastOptions): ToastHandle => {
    const handle = pushToast('html', '', options);
    void sanitizeHtml(html).then((clean) => setMessage(handle.id, clean));
    return handle;
  },
};
