import type { Page } from '@playwright/test';

/**
 * How the mock wallet reaches the page (issue 33): announced by EIP-6963 (wallet-mock's own way), or
 * like the in-app browsers that do not announce: a legacy `window.ethereum` only, one injected a
 * moment after the app's wallet list is up (with `ethereum#initialized`), or a wallet-named global
 * (`window.okxwallet`, `window.binancew3w.ethereum`, ...). The same recording provider either way, so
 * the allowlist check reads every request the app made.
 */
export type InjectionMode =
  | { kind: 'eip6963' }
  | { kind: 'legacy' }
  | { kind: 'late' }
  | { kind: 'named'; path: readonly string[] };

export const EIP6963: InjectionMode = { kind: 'eip6963' };

/**
 * Registered after the mock's provider fitting and before wallet-mock's own init script: takes its
 * announcement (so nothing reaches the app by EIP-6963) and puts the provider where `mode` says.
 */
export async function installInjectionMode(page: Page, mode: InjectionMode): Promise<void> {
  if (mode.kind === 'eip6963') return;
  await page.addInitScript((m: InjectionMode) => {
    type Provider = { request: (a: unknown) => Promise<unknown> };
    const win = window as unknown as Record<string, unknown>;
    let placed = false;
    const place = (provider: Provider) => {
      if (m.kind === 'named') {
        let at = win;
        for (const key of m.path.slice(0, -1)) {
          at[key] ??= {};
          at = at[key] as Record<string, unknown>;
        }
        at[m.path[m.path.length - 1] ?? 'ethereum'] = provider;
        return;
      }
      win.ethereum = provider;
      if (m.kind === 'late') window.dispatchEvent(new Event('ethereum#initialized'));
    };
    window.addEventListener(
      'eip6963:announceProvider',
      (event) => {
        const provider = (event as CustomEvent<{ provider: Provider }>).detail.provider;
        event.stopImmediatePropagation();
        if (placed) return;
        placed = true;
        if (m.kind !== 'late') {
          place(provider);
          return;
        }
        // Late: once the app shows its wallet list (its kit has loaded and looked), inject.
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="wallet-list"]')) return;
          observer.disconnect();
          setTimeout(() => place(provider), 200);
        });
        const watch = () => observer.observe(document.documentElement, { childList: true, subtree: true });
        if (document.documentElement) watch();
        else document.addEventListener('DOMContentLoaded', watch);
      },
      { capture: true },
    );
  }, mode);
}
