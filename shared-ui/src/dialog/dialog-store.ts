import { createStore } from 'zustand/vanilla';

export type DialogKind = 'alert' | 'confirm' | 'confirmHtml' | 'input';

export interface DialogOptions {
  title?: string;
  /** Body: HTML for alert and confirmHtml (sanitised), plain text otherwise. */
  text?: string;
  /** Small line under the input (input dialog). */
  tips?: string;
  inputType?: 'text' | 'password';
  /** Initial value of the input. */
  value?: string;
  /** Default: translated "please enter". */
  placeholder?: string;
  confirmButtonText?: string;
  cancelButtonText?: string;
  /** Text of the left button (overrides the confirm/cancel text of that side). */
  leftText?: string;
  /** Text of the right button (overrides the confirm/cancel text of that side). */
  rightText?: string;
  /** Centre the body text. */
  center?: boolean;
  /** Centre the title. */
  titleCenter?: boolean;
  /**
   * Input dialog: checks the typed value on confirm. An error message keeps the dialog open with
   * the message under the input and what was typed; null lets it close with the value.
   */
  validate?: (value: string) => string | null;
}

export interface OpenDialog {
  id: number;
  kind: DialogKind;
  options: DialogOptions;
  /** Sanitised body HTML (alert, confirmHtml). */
  html?: string;
  resolve: (value: string | undefined) => void;
  reject: (error: DialogCancelled) => void;
}

/** How a dialog was closed without confirming. */
export type CancelReason = 'cancel' | 'close' | 'backdrop' | 'escape';

/** The rejection of a dialog closed by cancel, the close icon, the backdrop or Escape. */
export class DialogCancelled extends Error {
  readonly reason: CancelReason;
  constructor(reason: CancelReason) {
    super(`dialog closed by ${reason}`);
    this.name = 'DialogCancelled';
    this.reason = reason;
  }
}

export function isDialogCancelled(error: unknown): error is DialogCancelled {
  return error instanceof DialogCancelled;
}

interface DialogState {
  dialogs: OpenDialog[];
}

/** One store for the whole page: shared-ui is a federation singleton. */
export const dialogStore = createStore<DialogState>(() => ({ dialogs: [] }));

let nextId = 1;

export function openDialog(kind: DialogKind, options: DialogOptions, html?: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const dialog: OpenDialog = { id: nextId++, kind, options, html, resolve, reject };
    dialogStore.setState((state) => ({ dialogs: [...state.dialogs, dialog] }));
  });
}

function remove(id: number): OpenDialog | undefined {
  const dialog = dialogStore.getState().dialogs.find((entry) => entry.id === id);
  if (dialog) dialogStore.setState((state) => ({ dialogs: state.dialogs.filter((entry) => entry.id !== id) }));
  return dialog;
}

/** Scroll the window and every `[data-scrollable]` element to the top. */
export function scrollPageToTop(): void {
  if (typeof window === 'undefined') return;
  window.scrollTo(0, 0);
  for (const element of document.querySelectorAll<HTMLElement>('[data-scrollable]')) element.scrollTop = 0;
}

export function confirmDialog(id: number, value?: string): void {
  const dialog = remove(id);
  if (!dialog) return;
  if (dialog.kind === 'input') scrollPageToTop();
  dialog.resolve(value);
}

export function cancelDialog(id: number, reason: CancelReason): void {
  const dialog = remove(id);
  if (!dialog) return;
  if (dialog.kind === 'input') scrollPageToTop();
  dialog.reject(new DialogCancelled(reason));
}

/** Close every open dialog as cancelled (e.g. on sign-out). */
export function cancelAllDialogs(): void {
  for (const dialog of dialogStore.getState().dialogs) cancelDialog(dialog.id, 'close');
}
