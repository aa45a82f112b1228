import { sanitizeHtml } from '../html/sanitize.ts';
import { type DialogOptions, openDialog } from './dialog-store.ts';

/**
 * Promise-based dialogs rendered by `<DialogHost />` (mounted once by the
 * host). Confirm resolves; cancel, the close icon, the backdrop and Escape
 * reject with `DialogCancelled`.
 */
export const dialog = {
  /** Title, HTML body, close icon and a confirm button. */
  alert: async (options: DialogOptions): Promise<void> => {
    const html = await sanitizeHtml(options.text ?? '');
    await openDialog('alert', options, html);
  },
  /** Cancel (left) and confirm (right); plain-text body; optional (centred) title. */
  confirm: async (options: DialogOptions): Promise<void> => {
    await openDialog('confirm', options);
  },
  /** HTML body; confirm first (left), cancel right. */
  confirmHtml: async (options: DialogOptions): Promise<void> => {
    const html = await sanitizeHtml(options.text ?? '');
    await openDialog('confirmHtml', options, html);
  },
  /** Title, body, text or password field, tips, cancel and confirm; resolves with the typed value. */
  input: async (options: DialogOptions): Promise<string> => (await openDialog('input', options)) ?? '',
};
