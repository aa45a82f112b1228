export { type SingleToastOptions, showSingleToast } from './single-toast.ts';
export {
  SINGLE_TOAST_DURATION_MS,
  TOAST_CLEAR_AFTER_MS,
  TOAST_HIDE_AFTER_MS,
  TOAST_SHOW_DELAY_MS,
} from './timing.ts';
export { toast } from './toast.ts';
export { ToastHost } from './toast-host.tsx';
export {
  type AlertType,
  clearToasts,
  resetToasts,
  type ToastHandle,
  type ToastItem,
  type ToastOptions,
  type ToastType,
  toastStore,
} from './toast-store.ts';
