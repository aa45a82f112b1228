/**
 * Wallets that inject their provider under their own name as well as (or instead of) window.ethereum
 * and EIP-6963: each becomes a targeted injected connector, shown under its own name and logo. No
 * wagmi here (the login screen reads `inAppWallet` without loading the web3 kit).
 */
interface Eip1193Like {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

export interface NamedProvider {
  /** Connector id (stable: wagmi remembers the last one used by it). */
  id: string;
  name: string;
  /** The wallet's EIP-6963 rdns: when it also announced itself, the announcement is the one shown. */
  rdns: string;
  /** The global it injects, as a path from window. */
  path: readonly string[];
  /** A monogram in the wallet's colour (the wallets' own logos are their trademarks, not shipped here). */
  icon: string;
}

const monogram = (letters: string, background: string, color = '#ffffff') =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="36" height="36" viewBox="0 0 36 36"><rect width="36" height="36" rx="8" fill="${background}"/><text x="18" y="23" font-family="Arial,sans-serif" font-size="13" font-weight="700" fill="${color}" text-anchor="middle">${letters}</text></svg>`,
  )}`;

export const NAMED_PROVIDERS: readonly NamedProvider[] = [
  {
    id: 'binancew3w',
    name: 'Binance Web3 Wallet',
    rdns: 'com.binance.wallet',
    path: ['binancew3w', 'ethereum'],
    icon: monogram('BN', '#f0b90b', '#1e2026'),
  },
  {
    id: 'bitkeep',
    name: 'Bitget Wallet',
    rdns: 'com.bitget.web3',
    path: ['bitkeep', 'ethereum'],
    icon: monogram('BG', '#00f0ff', '#000000'),
  },
  {
    id: 'okxwallet',
    name: 'OKX Wallet',
    rdns: 'com.okex.wallet',
    path: ['okxwallet'],
    icon: monogram('OKX', '#000000'),
  },
  {
    id: 'safepal',
    name: 'SafePal',
    rdns: 'com.safepal',
    path: ['safepalProvider'],
    icon: monogram('SP', '#4a21ef'),
  },
  {
    id: 'trustwallet',
    name: 'Trust Wallet',
    rdns: 'com.trustwallet.app',
    path: ['trustwallet'],
    icon: monogram('TW', '#0500ff'),
  },
];

const isProvider = (value: unknown): value is Eip1193Like =>
  typeof value === 'object' && value !== null && typeof (value as Eip1193Like).request === 'function';

/** The provider the wallet injected at `path`, or undefined. Reading a global never throws. */
export function namedProvider(win: unknown, entry: Pick<NamedProvider, 'path'>): Eip1193Like | undefined {
  let value: unknown = win;
  for (const key of entry.path) {
    if (typeof value !== 'object' || value === null) return undefined;
    try {
      value = (value as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  }
  return isProvider(value) ? value : undefined;
}

/** A phone or tablet browser (where the in-app browsers live); desktop wallets are extensions. */
export function isMobileBrowser(nav: { userAgent: string } | undefined): boolean {
  return nav !== undefined && /Android|iPhone|iPad|iPod|Mobile/i.test(nav.userAgent);
}

interface InjectedFlags {
  isMetaMask?: boolean;
  isTrust?: boolean;
  isTrustWallet?: boolean;
  isCoinbaseWallet?: boolean;
  isTokenPocket?: boolean;
  isImToken?: boolean;
  isBitKeep?: boolean;
  isOkxWallet?: boolean;
  isSafePal?: boolean;
}

/**
 * The wallet whose in-app browser this page is open in (a phone browser with that wallet's provider),
 * or null. Its storage is its own: the user signs in there once.
 */
export function inAppWallet(win: (Window & typeof globalThis) | undefined): string | null {
  if (!win || !isMobileBrowser(win.navigator)) return null;
  for (const entry of NAMED_PROVIDERS) if (namedProvider(win, entry)) return entry.name;
  const ethereum = (win as unknown as { ethereum?: InjectedFlags }).ethereum;
  if (!ethereum || typeof ethereum !== 'object') return null;
  if (ethereum.isTokenPocket) return 'TokenPocket';
  if (ethereum.isImToken) return 'imToken';
  if (ethereum.isCoinbaseWallet) return 'Coinbase Wallet';
  if (ethereum.isTrust || ethereum.isTrustWallet) return 'Trust Wallet';
  if (ethereum.isOkxWallet) return 'OKX Wallet';
  if (ethereum.isBitKeep) return 'Bitget Wallet';
  if (ethereum.isSafePal) return 'SafePal';
  // Several wallets also set isMetaMask for compatibility: checked last.
  if (ethereum.isMetaMask) return 'MetaMask';
  return null;
}
