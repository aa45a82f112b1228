export { dialog } from './dialog.ts';
export { DialogHost } from './dialog-host.tsx';
export {
  type CancelReason,
  cancelAllDialogs,
  DialogCancelled,
  type DialogKind,
  type DialogOptions,
  dialogStore,
  isDialogCancelled,
  scrollPageToTop,
} from './dialog-store.ts';
