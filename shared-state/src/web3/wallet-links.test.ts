import { describe, expect, it } from 'vitest';
import { WALLET_CATALOGUE } from './wallet-catalogue.ts';
import { openInWalletLinks, WALLET_LINKS } from './wallet-links.ts';

/** A deposit screen with network and coin, and a hash: every character that encodes differently. */
const PAGE = 'https://app.example.com/coinTopup/deposit?coin=USDT&network=ethereum#top';
const href = (id: string) => openInWalletLinks(PAGE).find((l) => l.link.id === id)?.href;

describe('"Open in <wallet>" links (issue 33): each wallet documents its own template and encoding', () => {
  it('MetaMask: the URL as a path, without scheme, not encoded', () => {
    expect(href('metamask')).toBe(
      'https://link.metamask.io/dapp/app.example.com/coinTopup/deposit?coin=USDT&network=ethereum#top',
    );
  });

  it('Trust Wallet: open_url on Ethereum (coin_id 60), the URL percent-encoded', () => {
    expect(href('trust')).toBe(
      'https://link.trustwallet.com/open_url?coin_id=60&url=https%3A%2F%2Fapp.example.com%2FcoinTopup%2Fdeposit%3Fcoin%3DUSDT%26network%3Dethereum%23top',
    );
    expect(new URL(href('trust') ?? '').searchParams.get('url')).toBe(PAGE);
  });

  it('Coinbase Wallet: cb_url percent-encoded', () => {
    const url = new URL(href('coinbase') ?? '');
    expect(`${url.origin}${url.pathname}`).toBe('https://go.cb-w.com/dapp');
    expect(url.searchParams.get('cb_url')).toBe(PAGE);
    expect(href('coinbase')).toContain('cb_url=https%3A%2F%2Fapp.example.com');
  });

  it('OKX Wallet: the okx:// deep link (URL encoded once) encoded again inside the download link', () => {
    const outer = new URL(href('okx') ?? '');
    expect(`${outer.origin}${outer.pathname}`).toBe('https://web3.okx.com/download');
    const deepLink = outer.searchParams.get('deeplink') ?? '';
    expect(deepLink).toBe(`okx://wallet/dapp/url?dappUrl=${encodeURIComponent(PAGE)}`);
    expect(new URL(deepLink).searchParams.get('dappUrl')).toBe(PAGE);
    // Double encoding: the page's "%" of "%3A" is itself "%25" in the outer link.
    expect(href('okx')).toContain('dappUrl%3Dhttps%253A%252F%252Fapp.example.com');
  });

  it('Bitget Wallet: bkcode.vip action=dapp, the URL encoded so its "&" and "#" stay inside', () => {
    const url = new URL(href('bitget') ?? '');
    expect(url.host).toBe('bkcode.vip');
    expect(url.searchParams.get('action')).toBe('dapp');
    expect(url.searchParams.get('url')).toBe(PAGE);
    expect(url.hash).toBe('');
  });

  it('TokenPocket: tpdapp:// with the JSON {url, chain, source} as one encoded parameter', () => {
    const link = href('tokenpocket') ?? '';
    expect(link.startsWith('tpdapp://open?params=')).toBe(true);
    const params = JSON.parse(decodeURIComponent(link.slice('tpdapp://open?params='.length)));
    expect(params).toEqual({ url: PAGE, chain: 'ETH', source: 'app.example.com' });
    expect(link).not.toMatch(/[{}"]/);
  });

  it('imToken: DappView with the URL encoded', () => {
    expect(href('imtoken')).toBe(`imtokenv2://navigate/DappView?url=${encodeURIComponent(PAGE)}`);
  });

  it('custom schemes are marked "opens only if installed"; https links are not', () => {
    const custom = WALLET_LINKS.filter((l) => l.customScheme).map((l) => l.id);
    expect(custom).toEqual(['tokenpocket', 'imtoken']);
    for (const l of WALLET_LINKS) expect(l.build(new URL(PAGE)).startsWith('https://')).toBe(!l.customScheme);
  });

  it('every template names where it is documented; catalogue wallets use the catalogue id', () => {
    for (const l of WALLET_LINKS) expect(l.source).toMatch(/^https:\/\//);
    const catalogueIds = new Set(WALLET_CATALOGUE.map((w) => w.id));
    for (const id of ['metamask', 'trust', 'coinbase', 'okx']) expect(catalogueIds.has(id)).toBe(true);
  });

  it('the sign screen opens on the sign screen (no query)', () => {
    const sign = openInWalletLinks('https://app.example.com/sign');
    expect(sign.find((l) => l.link.id === 'metamask')?.href).toBe('https://link.metamask.io/dapp/app.example.com/sign');
    expect(new URL(sign.find((l) => l.link.id === 'coinbase')?.href ?? '').searchParams.get('cb_url')).toBe(
      'https://app.example.com/sign',
    );
  });
});
