import { type Connector, injected } from 'wagmi';
import { NAMED_PROVIDERS, namedProvider } from './named-providers.ts';
import type { WalletOption } from './types.ts';

/**
 * The injected side of the wallet list: one targeted injected connector per wallet that injects under
 * its own name (shown only where that global exists, and not twice when the same wallet also announced
 * itself by EIP-6963), and a bounded wait for a provider injected a moment after the page loaded.
 * Every connector still goes through the kit's guard (guardConnector wraps each getProvider).
 */

/** How long after the kit loads a late provider is still looked for (MetaMask's detect-provider uses 3 s). */
export const INJECTION_WAIT_MS = 3_000;

export function namedConnectors() {
  return NAMED_PROVIDERS.map((entry) =>
    injected({
      shimDisconnect: true,
      target: {
        id: entry.id,
        name: entry.name,
        icon: entry.icon,
        provider: ((win?: unknown) => namedProvider(win, entry)) as never,
      },
    }),
  );
}

/** The wallets the page offers now: announced (EIP-6963), window.ethereum, and the named ones present. */
export function offeredWallets(connectors: readonly Connector[], win: unknown): WalletOption[] {
  const announced = new Set(connectors.flatMap((c) => (typeof c.rdns === 'string' ? [c.rdns] : [])));
  return connectors.flatMap((c): WalletOption[] => {
    const named = NAMED_PROVIDERS.find((n) => n.id === c.id);
    if (named && (!namedProvider(win, named) || announced.has(named.rdns))) return [];
    return [
      {
        id: c.id,
        name: c.name,
        icon: c.icon ?? null,
        rdns: named ? named.rdns : typeof c.rdns === 'string' ? c.rdns : null,
      },
    ];
  });
}

/**
 * Calls `changed` when a wallet says it has injected its provider (`ethereum#initialized`, MetaMask's
 * event, also sent by wallets that inject late) and once more at the end of the wait, for wallets that
 * inject without the event; then stops listening. Returns the stop function.
 */
export function watchLateInjection(win: Window, changed: () => void, wait_ms = INJECTION_WAIT_MS): () => void {
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    win.removeEventListener('ethereum#initialized', onInitialized);
    clearTimeout(timer);
  };
  const onInitialized = () => {
    stop();
    changed();
  };
  win.addEventListener('ethereum#initialized', onInitialized, { once: true });
  const timer = setTimeout(onInitialized, wait_ms);
  return stop;
}
