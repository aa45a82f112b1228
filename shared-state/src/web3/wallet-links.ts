/**
 * "Open in <wallet>": the link each wallet documents for opening a web page inside its own in-app
 * browser, where its provider is injected (no WalletConnect, no SDK: the wallet-safety rule). Data
 * beside the wallet catalogue (same `id`s); every template was checked against the wallet's own
 * developer documentation on 2026-11-27, address in `source`. Encoding rules differ per wallet: see
 * each `build`. Built from the page the user is on, so the wallet opens on the same screen (path,
 * query and hash kept).
 */
export interface WalletLink {
  /** The catalogue's wallet id (or a wallet that is only here). */
  id: string;
  name: string;
  /** Custom URL scheme: opens only when the app is installed (no download page as fallback). */
  customScheme: boolean;
  /** Where the template is documented. */
  source: string;
  /** Brand colour of the monogram shown beside the link. */
  color: string;
  build(pageUrl: URL): string;
}

/** The page's own URL without the scheme, for MetaMask's path form ("host+path, not encoded"). */
const withoutScheme = (url: URL) => `${url.host}${url.pathname}${url.search}${url.hash}`;

export const WALLET_LINKS: readonly WalletLink[] = [
  {
    id: 'metamask',
    color: '#f6851b',
    name: 'MetaMask',
    customScheme: false,
    // "https://link.metamask.io/dapp/{dappUrl}", example .../dapp/app.uniswap.org: the URL as a path,
    // without scheme and NOT percent-encoded (an encoded "/", "?" or "#" opens a blank tab).
    source: 'https://docs.metamask.io/metamask-connect/evm/guides/metamask-exclusive/use-deeplinks/',
    build: (url) => `https://link.metamask.io/dapp/${withoutScheme(url)}`,
  },
  {
    id: 'trust',
    color: '#0500ff',
    name: 'Trust Wallet',
    customScheme: false,
    // "https://link.trustwallet.com/open_url?coin_id=60&url=..." (coin_id: SLIP-44 index, 60 = Ethereum).
    source: 'https://developer.trustwallet.com/developer/develop-for-trust/deeplinking',
    build: (url) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(url.href)}`,
  },
  {
    id: 'coinbase',
    color: '#0052ff',
    name: 'Coinbase Wallet',
    customScheme: false,
    // "https://go.cb-w.com/dapp?cb_url=[YOUR_URL]": "YOUR_URL should be encoded with percent-encoding".
    source: 'https://docs.cdp.coinbase.com/coinbase-wallet/developer-guidance/mobile-dapp-integration',
    build: (url) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(url.href)}`,
  },
  {
    id: 'okx',
    color: '#000000',
    name: 'OKX Wallet',
    customScheme: false,
    // "okx://wallet/dapp/url?dappUrl=" + encodeURIComponent(dappUrl), then the whole deep link encoded
    // again into "https://web3.okx.com/download?deeplink=" (the universal link: download page if absent).
    source: 'https://web3.okx.com/build/docs/waas/app-universal-link',
    build: (url) => {
      const deepLink = `okx://wallet/dapp/url?dappUrl=${encodeURIComponent(url.href)}`;
      return `https://web3.okx.com/download?deeplink=${encodeURIComponent(deepLink)}`;
    },
  },
  {
    id: 'bitget',
    color: '#00c4d4',
    name: 'Bitget Wallet',
    customScheme: false,
    // BKConnect "Access dapp": https://bkcode.vip?action=dapp&url=<dapp address> (Android H5 supports
    // only the https form). The URL is encoded so its own "?", "&" and "#" stay inside `url`.
    source: 'https://docs.bitkeep.com/en/docs/guide/mobile/Deeplink.html',
    build: (url) => `https://bkcode.vip?action=dapp&url=${encodeURIComponent(url.href)}`,
  },
  {
    id: 'tokenpocket',
    color: '#2980fe',
    name: 'TokenPocket',
    customScheme: true,
    // "tpdapp://open?params={"url": ..., "chain": ..., "source": ...}": the JSON encoded as one parameter.
    source: 'https://github.com/TP-Lab/TokenPocket-Protocol (Dapp browser open url)',
    build: (url) =>
      `tpdapp://open?params=${encodeURIComponent(JSON.stringify({ url: url.href, chain: 'ETH', source: url.host }))}`,
  },
  {
    id: 'imtoken',
    color: '#098de6',
    name: 'imToken',
    customScheme: true,
    // "imtokenv2://navigate/DappView?url=...": "If your DApp link contains characters that need to be
    // parsed, serialize the query parameter" (encodeURIComponent).
    source: 'https://imtoken.gitbook.io/developers/products/deep-linking',
    build: (url) => `imtokenv2://navigate/DappView?url=${encodeURIComponent(url.href)}`,
  },
];

/**
 * Wallets whose in-app browser has no documented link to open a page (Binance Web3 Wallet removed its
 * deep links in 2026; SafePal; Rabby): the user copies the page's link and pastes it in the wallet's
 * browser.
 */
export const COPY_LINK_WALLETS: readonly string[] = ['Binance Web3 Wallet', 'SafePal', 'Rabby'];

/** Each wallet's "Open in" link for this page. */
export function openInWalletLinks(pageUrl: string): { link: WalletLink; href: string }[] {
  const url = new URL(pageUrl);
  return WALLET_LINKS.map((link) => ({ link, href: link.build(url) }));
}
