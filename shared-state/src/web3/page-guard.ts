import { guardProvider } from './guard.ts';

/**
 * The page's own wallet entry points behind the guard too, not only the providers our connectors hand
 * to wagmi: `window.ethereum` is replaced by its guarded proxy, and every EIP-6963 announcement is
 * stopped and announced again with the guarded provider, so code that reaches for the raw provider
 * (a remote, a script) gets only what the guard allows. Called when the web3 kit loads, before wagmi
 * asks wallets to announce themselves.
 */

const ANNOUNCE = 'eip6963:announceProvider';

interface Eip1193Like {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}
interface Announcement {
  info: unknown;
  provider: Eip1193Like;
}

const isProvider = (value: unknown): value is Eip1193Like =>
  typeof value === 'object' && value !== null && typeof (value as Eip1193Like).request === 'function';

/** Globals a wallet puts its provider in directly (window.ethereum and the wallet-named ones). */
const PROVIDER_GLOBALS = ['ethereum', 'okxwallet', 'safepalProvider', 'trustwallet'] as const;
/** Wallet-named objects whose `ethereum` is the provider (Binance Web3 Wallet, Bitget). */
const NESTED_PROVIDER_GLOBALS = ['binancew3w', 'bitkeep'] as const;

const nestedViews = new WeakMap<object, object>();

/** window[name] read through a view whose `ethereum` is the guarded provider (set or replaced later too). */
function guardNested(win: Window, name: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(win, name);
  if (descriptor && !descriptor.configurable) return;
  let current: unknown = descriptor && 'value' in descriptor ? descriptor.value : descriptor?.get?.call(win);
  const view = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    let known = nestedViews.get(value);
    if (!known) {
      known = new Proxy(value, {
        get(target, property) {
          const inner = Reflect.get(target, property, target);
          return property === 'ethereum' && isProvider(inner) ? guardProvider(inner) : inner;
        },
      });
      nestedViews.set(value, known);
    }
    return known;
  };
  Object.defineProperty(win, name, {
    configurable: true,
    enumerable: true,
    get: () => view(current),
    set: (next: unknown) => {
      current = next;
    },
  });
}

/** window[name], now and when a wallet sets it later, read as the guarded provider. */
function guardInjected(win: Window, name: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(win, name);
  // A wallet that defined it non-configurable cannot be replaced: its connector's provider is still guarded.
  if (descriptor && !descriptor.configurable) return;
  let current: unknown = descriptor && 'value' in descriptor ? descriptor.value : descriptor?.get?.call(win);
  Object.defineProperty(win, name, {
    configurable: true,
    enumerable: true,
    get: () => (isProvider(current) ? guardProvider(current) : current),
    set: (next: unknown) => {
      current = next;
    },
  });
}

const pagesGuarded = new WeakSet<Window>();

export function guardPageProviders(win: Window): void {
  if (pagesGuarded.has(win)) return;
  pagesGuarded.add(win);
  for (const name of PROVIDER_GLOBALS) guardInjected(win, name);
  for (const name of NESTED_PROVIDER_GLOBALS) guardNested(win, name);
  win.addEventListener(
    ANNOUNCE,
    (event) => {
      const detail = (event as CustomEvent<Announcement>).detail;
      if (!detail || !isProvider(detail.provider)) return;
      const guarded = guardProvider(detail.provider);
      if (guarded === detail.provider) return;
      // Nobody sees the raw provider: the same announcement goes out again with the guard.
      event.stopImmediatePropagation();
      win.dispatchEvent(new CustomEvent(ANNOUNCE, { detail: Object.freeze({ info: detail.info, provider: guarded }) }));
    },
    { capture: true },
  );
}
