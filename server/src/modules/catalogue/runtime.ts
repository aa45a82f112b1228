import {
  type Coin,
  type CoinCode,
  type CoinNetwork,
  coinNetworks,
  coins,
  type Network,
  networks,
} from './catalogue.ts';
import { type EvmChains, isEvmNetwork } from './chains-file.ts';

/**
 * The catalogue as it holds right now: the static data plus what the running chains say.
 * - EVM token contracts come from the chains file (the constants are placeholders).
 * - Withdrawals are enabled only where the signer can broadcast: an EVM network with a running chain
 *   (and, for a token, a deployed contract). TRON, Bitcoin and Dogecoin have no signer yet.
 */
export interface RuntimePair extends Omit<CoinNetwork, 'tokenContract'> {
  tokenContract: string | null;
}

export interface RuntimeCatalogue {
  coins: readonly Coin[];
  networks: readonly Network[];
  pairs: RuntimePair[];
}

/** `signerRunning` false: no withdrawal is enabled (approved ones would wait for a signer that is not there). */
export function runtimePair(pair: CoinNetwork, chains: EvmChains, signerRunning = true): RuntimePair {
  const chain = isEvmNetwork(pair.network) ? chains[pair.network] : undefined;
  const isNative = pair.tokenContract === null;
  const contract = isNative ? null : (chain?.tokens[pair.coin as CoinCode] ?? null);
  const signable = signerRunning && chain !== undefined && (isNative || contract !== null);
  return { ...pair, tokenContract: contract, withdrawEnabled: pair.withdrawEnabled && signable };
}

export function runtimeCatalogue(chains: EvmChains, signerRunning = true): RuntimeCatalogue {
  return { coins, networks, pairs: coinNetworks.map((p) => runtimePair(p, chains, signerRunning)) };
}
