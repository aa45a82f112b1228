import { createStore } from 'zustand/vanilla';
import { TOAST_CLEAR_AFTER_MS, TOAST_HIDE_AFTER_MS, TOAST_SHOW_DELAY_MS } from './timing.ts';

export type ToastType = 'text' | 'loading' | 'success' | 'fail' | 'html';
/** 1 = rounded bubble, 2 = plain centred text. */
export type AlertType = 1 | 2;

export interface ToastOptions {
  alertType?: AlertType;
  /** Milliseconds the message stays visible; 0 keeps it until closed. Default 3000 (loading: 0). */
  duration?: number;
}

export interface ToastItem {
  id: number;
  type: ToastType;
  /** Plain text, or sanitised HTML for type 'html'. */
  message: string;
  alertType: AlertType;
  /** False until it appears (~100 ms after queueing) and again once it hides. */
  visible: boolean;
  hidden: boolean;
}

export interface ToastHandle {
  id: number;
  close: () => void;
}

interface ToastState {
  items: ToastItem[];
}

/** One store for the whole page: shared-ui is a federation singleton. */
export const toastStore = createStore<ToastState>(() => ({ items: [] }));

let nextId = 1;
let clearTimer: ReturnType<typeof setTimeout> | undefined;
const timers = new Map<number, ReturnType<typeof setTimeout>[]>();

function update(id: number, patch: Partial<ToastItem>): void {
  toastStore.setState((state) => ({
    items: state.items.map((item) => (item.id === id ? { ...item, ...patch } : item)),
  }));
}

function scheduleClear(): void {
  if (clearTimer) clearTimeout(clearTimer);
  clearTimer = undefined;
  const { items } = toastStore.getState();
  if (items.length === 0 || items.some((item) => !item.hidden)) return;
  clearTimer = setTimeout(() => {
    clearTimer = undefined;
    if (toastStore.getState().items.every((item) => item.hidden)) toastStore.setState({ items: [] });
  }, TOAST_CLEAR_AFTER_MS);
}

function hide(id: number): void {
  for (const timer of timers.get(id) ?? []) clearTimeout(timer);
  timers.delete(id);
  const item = toastStore.getState().items.find((entry) => entry.id === id);
  if (!item || item.hidden) return;
  update(id, { visible: false, hidden: true });
  scheduleClear();
}

/** Queue a message: it appears after TOAST_SHOW_DELAY_MS and hides after its duration. */
export function pushToast(type: ToastType, message: string, options: ToastOptions = {}): ToastHandle {
  const id = nextId++;
  const duration = options.duration ?? (type === 'loading' ? 0 : TOAST_HIDE_AFTER_MS);
  if (clearTimer) clearTimeout(clearTimer);
  clearTimer = undefined;
  toastStore.setState((state) => ({
    items: [...state.items, { id, type, message, alertType: options.alertType ?? 1, visible: false, hidden: false }],
  }));
  const show = setTimeout(() => {
    update(id, { visible: true });
    if (duration > 0) timers.get(id)?.push(setTimeout(() => hide(id), duration));
  }, TOAST_SHOW_DELAY_MS);
  timers.set(id, [show]);
  return { id, close: () => hide(id) };
}

/** Hide every message now (the list clears TOAST_CLEAR_AFTER_MS later). */
export function clearToasts(): void {
  for (const item of toastStore.getState().items) hide(item.id);
}

/** Test helper: forget every message and timer at once. */
export function resetToasts(): void {
  for (const list of timers.values()) for (const timer of list) clearTimeout(timer);
  timers.clear();
  if (clearTimer) clearTimeout(clearTimer);
  clearTimer = undefined;
  toastStore.setState({ items: [] });
}
