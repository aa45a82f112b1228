import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type CoinCode, coinNetworks, isCoinCode, networks } from '../catalogue/catalogue.ts';

import { type EvmNetwork, evmNetworks } from '../catalogue/chains-file.ts';

/** An EVM chain the server talks to: the local anvil (chains.json) or a configured RPC. */
export interface EvmChainRuntime {
  network: EvmNetwork;
  chainId: number;
  rpcUrl: string;
  /** Token contracts by coin; replace the catalogue's placeholders at run time. */
  tokens: Partial<Record<CoinCode, `0x${string}`>>;
  /** Blocks on top of a deposit's block before it is credited (the catalogue's, per network). */
  confirmations: number;
  /** The rewards check-in contract (local chains: deployed at start; real chains: `<NETWORK>_CHECKIN_CONTRACT`). */
  checkInContract?: `0x${string}`;
  /**
   * The node's WebSocket endpoint for new-head pushes (`<NETWORK>_WS_URL`; a local anvil serves it on
   * its RPC port); unset: the watcher polls only.
   */
  wsUrl?: string;
  /**
   * Native coin sent to deposit addresses by contracts (Safe and smart-account wallets, multisends,
   * batch payouts) is found by tracing each block's calls (`debug_traceBlockByHash`, callTracer): on
   * for the local anvil, `<NETWORK>_TRACE_INTERNAL=1` for a node that serves the debug API. Off: only a
   * transaction's own value is seen (README).
   */
  traceInternal?: boolean;
}

/** What DATA_DIR/chains.json holds (written by local-chains.ts, read by the signer and the faucet). */
export interface ChainsFileEntry {
  chainId: number;
  rpcUrl: string;
  tokens: Partial<Record<CoinCode, `0x${string}`>>;
  checkIn?: `0x${string}`;
}
export type ChainsFile = Partial<Record<EvmNetwork, ChainsFileEntry>>;

export const chainsFilePath = (dataDir: string) => path.join(dataDir, 'chains.json');

export function readChainsFile(dataDir: string): ChainsFile {
  const file = chainsFilePath(dataDir);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as ChainsFile;
}

/** Confirmations of the network's native coin (tokens on the same network use the same count). */
export function networkConfirmations(network: EvmNetwork): number {
  const native = networks.find((n) => n.code === network)?.nativeCoin;
  const pair = coinNetworks.find((p) => p.network === network && p.coin === native);
  if (!pair) throw new Error(`catalogue has no native coin for ${network}`);
  return pair.confirmations;
}

function tokensFromEnv(network: EvmNetwork, env: NodeJS.ProcessEnv): Partial<Record<CoinCode, `0x${string}`>> {
  const tokens: Partial<Record<CoinCode, `0x${string}`>> = {};
  for (const pair of coinNetworks) {
    if (pair.network !== network || pair.tokenContract === null) continue;
    const value = env[`${network.toUpperCase()}_TOKEN_${pair.coin}`]?.trim();
    if (value && /^0x[0-9a-fA-F]{40}$/.test(value)) tokens[pair.coin] = value as `0x${string}`;
  }
  return tokens;
}

/**
 * Production: `<NETWORK>_RPC_URL`, `<NETWORK>_CHAIN_ID`, `<NETWORK>_TOKEN_<COIN>` and `<NETWORK>_WS_URL` from the
 * environment. Development: DATA_DIR/chains.json from the local anvil chains.
 */
export function loadChainConfig(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<EvmNetwork, EvmChainRuntime | undefined> {
  const file = readChainsFile(dataDir);
  const result = {} as Record<EvmNetwork, EvmChainRuntime | undefined>;
  for (const network of evmNetworks) {
    const upper = network.toUpperCase();
    const rpcUrl = env[`${upper}_RPC_URL`]?.trim();
    const entry = file[network];
    const wsUrl = env[`${upper}_WS_URL`]?.trim();
    if (rpcUrl) {
      const chainId = Number(env[`${upper}_CHAIN_ID`] ?? (network === 'ethereum' ? 1 : 56));
      const checkIn = env[`${upper}_CHECKIN_CONTRACT`]?.trim();
      result[network] = {
        network,
        chainId,
        rpcUrl,
        tokens: tokensFromEnv(network, env),
        confirmations: networkConfirmations(network),
        ...(checkIn && /^0x[0-9a-fA-F]{40}$/.test(checkIn) ? { checkInContract: checkIn as `0x${string}` } : {}),
        ...(wsUrl && /^wss?:\/\//.test(wsUrl) ? { wsUrl } : {}),
        ...(env[`${upper}_TRACE_INTERNAL`]?.trim() === '1' ? { traceInternal: true } : {}),
      };
    } else if (entry) {
      const tokens = Object.fromEntries(Object.entries(entry.tokens).filter(([coin]) => isCoinCode(coin)));
      result[network] = {
        network,
        chainId: entry.chainId,
        rpcUrl: entry.rpcUrl,
        tokens,
        confirmations: networkConfirmations(network),
        ...(entry.checkIn ? { checkInContract: entry.checkIn } : {}),
        wsUrl: wsUrlOf(entry.rpcUrl),
        traceInternal: true,
      };
    } else {
      result[network] = undefined;
    }
  }
  return result;
}

/** `http://host:port` -> `ws://host:port` (anvil serves both on one port); https -> wss. */
export function wsUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Local anvil chains are launched for the EVM networks without a configured RPC URL. */
export function localChainNetworks(env: NodeJS.ProcessEnv): EvmNetwork[] {
  return evmNetworks.filter((n) => !env[`${n.toUpperCase()}_RPC_URL`]?.trim());
}
