/**
 * Well-known browser wallets, offered with an install link when none of them announced itself
 * (EIP-6963). Data, not code: add or remove a row. `rdns` matches the EIP-6963 announcement, so an
 * installed wallet is shown once, as discovered. Descriptions are translated by key (the remotes'
 * `wallets.<id>` texts).
 */
export interface WalletEntry {
  id: string;
  name: string;
  rdns: string;
  /** 'extension': browser extension; 'app': mobile wallet with an in-app browser. */
  type: 'extension' | 'app';
  currencies: readonly string[];
  installUrl: string;
  /** Brand colour for the monogram shown until the wallet itself supplies an icon. */
  color: string;
}

export const WALLET_CATALOGUE: readonly WalletEntry[] = [
  {
    id: 'metamask',
    name: 'MetaMask',
    rdns: 'io.metamask',
    type: 'extension',
    currencies: ['ETH', 'BNB', 'USDT', 'USDC'],
    installUrl: 'https://metamask.io/download/',
    color: '#f6851b',
  },
  {
    id: 'trust',
    name: 'Trust Wallet',
    rdns: 'com.trustwallet.app',
    type: 'app',
    currencies: ['ETH', 'BNB', 'USDT', 'USDC', 'TRX'],
    installUrl: 'https://trustwallet.com/download',
    color: '#0500ff',
  },
  {
    id: 'okx',
    name: 'OKX Wallet',
    rdns: 'com.okex.wallet',
    type: 'extension',
    currencies: ['ETH', 'BNB', 'USDT', 'USDC'],
    installUrl: 'https://www.okx.com/web3',
    color: '#000000',
  },
  {
    id: 'coinbase',
    name: 'Coinbase Wallet',
    rdns: 'com.coinbase.wallet',
    type: 'extension',
    currencies: ['ETH', 'USDT', 'USDC'],
    installUrl: 'https://www.coinbase.com/wallet/downloads',
    color: '#0052ff',
  },
  {
    id: 'rabby',
    name: 'Rabby',
    rdns: 'io.rabby',
    type: 'extension',
    currencies: ['ETH', 'BNB', 'USDT', 'USDC'],
    installUrl: 'https://rabby.io/',
    color: '#7084ff',
  },
];
