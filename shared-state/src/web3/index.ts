export { type Web3ErrorCode, web3Error } from './errors.ts';
export { inAppWallet, isMobileBrowser } from './named-providers.ts';
export { loadWeb3, shortAddress, useWeb3 } from './store.ts';
export type { WalletOption, Web3ChainInfo, Web3Kit, Web3State } from './types.ts';
export { WALLET_CATALOGUE, type WalletEntry } from './wallet-catalogue.ts';
export { COPY_LINK_WALLETS, openInWalletLinks, WALLET_LINKS, type WalletLink } from './wallet-links.ts';
