import { afterEach, describe, expect, it, vi } from 'vitest';
import { offeredWallets, watchLateInjection } from './injected-wallets.ts';
import { inAppWallet, isMobileBrowser, NAMED_PROVIDERS, namedProvider } from './named-providers.ts';

const provider = (flags: Record<string, boolean> = {}) => ({ request: async () => '0x1', ...flags });
const PHONE = { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148' };
const DESKTOP = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' };
const fakeWindow = (globals: Record<string, unknown>, nav = PHONE) =>
  ({ navigator: nav, ...globals }) as unknown as Window & typeof globalThis;

describe('wallets that inject under their own name (issue 33)', () => {
  it('finds each documented global, nested or not, and nothing that is not a provider', () => {
    const paths: Record<string, Record<string, unknown>> = {
      binancew3w: { binancew3w: { ethereum: provider() } },
      bitkeep: { bitkeep: { ethereum: provider() } },
      okxwallet: { okxwallet: provider() },
      safepal: { safepalProvider: provider() },
      trustwallet: { trustwallet: provider() },
    };
    for (const entry of NAMED_PROVIDERS) {
      expect(namedProvider(paths[entry.id], entry), entry.id).toBeDefined();
      expect(namedProvider({}, entry), entry.id).toBeUndefined();
    }
    expect(namedProvider({ okxwallet: { request: 'no' } }, NAMED_PROVIDERS[2] ?? { path: [] })).toBeUndefined();
    expect(namedProvider({ bitkeep: null }, NAMED_PROVIDERS[1] ?? { path: [] })).toBeUndefined();
  });

  it('offers a named connector only where its global exists, and not twice beside its own EIP-6963 announcement', () => {
    const connectors = [
      { id: 'injected', name: 'Injected', icon: undefined, rdns: undefined },
      ...NAMED_PROVIDERS.map((n) => ({ id: n.id, name: n.name, icon: n.icon, rdns: undefined })),
    ] as never[];
    const win = { okxwallet: provider(), bitkeep: { ethereum: provider() } };
    expect(offeredWallets(connectors, win).map((w) => w.id)).toEqual(['injected', 'bitkeep', 'okxwallet']);
    const okx = offeredWallets(connectors, win).find((w) => w.id === 'okxwallet');
    expect(okx?.name).toBe('OKX Wallet');
    expect(okx?.icon).toMatch(/^data:image\/svg\+xml,/);
    expect(okx?.rdns).toBe('com.okex.wallet');
    const withAnnounced = [...connectors, { id: 'com.okex.wallet', name: 'OKX', rdns: 'com.okex.wallet' }] as never[];
    expect(offeredWallets(withAnnounced, win).map((w) => w.id)).toEqual(['injected', 'bitkeep', 'com.okex.wallet']);
  });

  it("names the wallet whose in-app browser this is, on a phone only (the login screen's notice)", () => {
    expect(inAppWallet(fakeWindow({ okxwallet: provider() }))).toBe('OKX Wallet');
    expect(inAppWallet(fakeWindow({ binancew3w: { ethereum: provider() } }))).toBe('Binance Web3 Wallet');
    expect(inAppWallet(fakeWindow({ ethereum: provider({ isMetaMask: true }) }))).toBe('MetaMask');
    expect(inAppWallet(fakeWindow({ ethereum: provider({ isMetaMask: true, isTokenPocket: true }) }))).toBe(
      'TokenPocket',
    );
    expect(inAppWallet(fakeWindow({ ethereum: provider({ isImToken: true }) }))).toBe('imToken');
    expect(inAppWallet(fakeWindow({ ethereum: provider({ isCoinbaseWallet: true }) }))).toBe('Coinbase Wallet');
    expect(inAppWallet(fakeWindow({ ethereum: provider() }))).toBeNull();
    expect(inAppWallet(fakeWindow({}))).toBeNull();
    // A desktop extension is not an in-app browser.
    expect(inAppWallet(fakeWindow({ okxwallet: provider() }, DESKTOP))).toBeNull();
    expect(isMobileBrowser(PHONE)).toBe(true);
    expect(isMobileBrowser(DESKTOP)).toBe(false);
  });
});

describe('a provider injected after load: ethereum#initialized, bounded', () => {
  afterEach(() => vi.useRealTimers());

  it('refreshes once on the event, and stops listening', () => {
    const changed = vi.fn();
    watchLateInjection(window, changed, 3_000);
    window.dispatchEvent(new Event('ethereum#initialized'));
    window.dispatchEvent(new Event('ethereum#initialized'));
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('refreshes once at the end of the wait when no event came, then never again', () => {
    vi.useFakeTimers();
    const changed = vi.fn();
    watchLateInjection(window, changed, 3_000);
    vi.advanceTimersByTime(2_999);
    expect(changed).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(changed).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('ethereum#initialized'));
    vi.advanceTimersByTime(10_000);
    expect(changed).toHaveBeenCalledTimes(1);
  });
});
