import {
  type Coin,
  type CoinNetwork,
  coinNetworks,
  coins,
  type Network,
  type NetworkCode,
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

export interface RuntimeNetwork extends Network {
  /** A deposit watcher runs for this network: deposits to it are seen and credited. */
  depositsLive: boolean;
  /** EIP-155 chain id of a running EVM chain; null for other networks. */
  chainId: number | null;
  checkInContract: string | null;
}

export interface RuntimeCatalogue {
  coins: readonly Coin[];
  networks: RuntimeNetwork[];
  pairs: RuntimePair[];
}

/** Networks whose deposits are watched, given the running EVM chains (plus the API-watched ones configured). */
export type WatchedNetworks = (chains: EvmChains) => ReadonlySet<NetworkCode>;

export function evmWatched(chains: EvmChains): ReadonlySet<NetworkCode> {
  return new Set(Object.keys(chains).filter((n) => chains[n as keyof EvmChains]) as NetworkCode[]);
}

/**
 * The contract of an EVM token as configured now (chains file or `<NETWORK>_TOKEN_<COIN>`); null for a
 * native coin, a non-EVM network, or a token whose contract is missing.
 */
export function configuredTokenContract(pair: CoinNetwork, chains: EvmChains): string | null {
  if (pair.tokenContract === null || !isEvmNetwork(pair.network)) return null;
  return chains[pair.network]?.tokens[pair.coin] ?? null;
}

/** USDT's TRC-20 contract on TRON mainnet (public, well known): the TRON watcher's default. */
export const TRON_MAINNET_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** The TRC-20 contract the TRON watcher reads for a coin: TRON_TOKEN_<COIN>, USDT's mainnet one by default. */
export function tronTokenContract(coin: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env[`TRON_TOKEN_${coin}`]?.trim();
  if (configured) return configured;
  return coin === 'USDT' ? TRON_MAINNET_USDT : null;
}

/**
 * A token whose contract is not configured takes no deposit: no watcher would see its transfers, and a
 * wallet asked to pay it has nothing to call (a client reading `tokenContract: null` as "native" would ask
 * for the native coin instead). EVM tokens read the chains file; TRON tokens what the TRON watcher reads.
 */
export function tokenWithoutContract(pair: CoinNetwork, chains: EvmChains, env: NodeJS.ProcessEnv = process.env) {
  if (pair.tokenContract === null) return false;
  if (isEvmNetwork(pair.network)) return configuredTokenContract(pair, chains) === null;
  if (pair.network === 'tron') return tronTokenContract(pair.coin, env) === null;
  return false;
}

/**
 * `signerRunning` false: no withdrawal is enabled (approved ones would wait for a signer that is not there).
 * A deposit is enabled only on a watched network, and for an EVM token only with its contract: an address
 * nobody watches would take coins never credited.
 */
export function runtimePair(
  pair: CoinNetwork,
  chains: EvmChains,
  signerRunning = true,
  watched: ReadonlySet<NetworkCode> = evmWatched(chains),
): RuntimePair {
  const chain = isEvmNetwork(pair.network) ? chains[pair.network] : undefined;
  const isNative = pair.tokenContract === null;
  const contract = configuredTokenContract(pair, chains);
  const signable = signerRunning && chain !== undefined && (isNative || contract !== null);
  return {
    ...pair,
    tokenContract: contract,
    depositEnabled: pair.depositEnabled && watched.has(pair.network) && !tokenWithoutContract(pair, chains),
    withdrawEnabled: pair.withdrawEnabled && signable,
  };
}

export function runtimeCatalogue(
  chains: EvmChains,
  signerRunning = true,
  watched: ReadonlySet<NetworkCode> = evmWatched(chains),
): RuntimeCatalogue {
  return {
    coins,
    networks: networks.map((n) => {
      const chain = isEvmNetwork(n.code) ? chains[n.code] : undefined;
      return {
        ...n,
        depositsLive: watched.has(n.code),
        chainId: chain?.chainId ?? null,
        checkInContract: chain?.checkInContract ?? null,
      };
    }),
    pairs: coinNetworks.map((p) => runtimePair(p, chains, signerRunning, watched)),
  };
}
