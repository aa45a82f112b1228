import type { CoinCode } from './catalogue.ts';

/** The EVM networks whose withdrawals the signer broadcasts (local anvil chains in development). */
export const evmNetworks = ['ethereum', 'bsc'] as const;
export type EvmNetwork = (typeof evmNetworks)[number];

/** What the wallet needs of a running EVM chain; modules/chain/chain-config.ts's EvmChainRuntime fits it. */
export interface EvmChainInfo {
  chainId: number;
  rpcUrl: string;
  tokens: Partial<Record<CoinCode, `0x${string}`>>;
  /** The rewards check-in contract, when the chain has one. */
  checkInContract?: `0x${string}`;
}
export type EvmChains = Partial<Record<EvmNetwork, EvmChainInfo>>;
/** Read at use time (loadChainConfig re-reads DATA_DIR/chains.json and the environment). */
export type ChainsProvider = () => EvmChains;

export function isEvmNetwork(value: string): value is EvmNetwork {
  return (evmNetworks as readonly string[]).includes(value);
}
