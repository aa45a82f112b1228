import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CoinCode } from './catalogue.ts';

/** The EVM networks whose withdrawals the signer broadcasts (local anvil chains in development). */
export const evmNetworks = ['ethereum', 'bsc'] as const;
export type EvmNetwork = (typeof evmNetworks)[number];

/** One EVM chain as the chain module writes it to `DATA_DIR/chains.json` (see the shared contract). */
export interface EvmChainInfo {
  chainId: number;
  rpcUrl: string;
  tokens: Partial<Record<CoinCode, `0x${string}`>>;
}
export type EvmChains = Partial<Record<EvmNetwork, EvmChainInfo>>;
/** Read at use time: the chains file appears once the local chains are up, after the API starts. */
export type ChainsProvider = () => EvmChains;

export function isEvmNetwork(value: string): value is EvmNetwork {
  return (evmNetworks as readonly string[]).includes(value);
}

function parse(text: string): EvmChains {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const out: EvmChains = {};
  for (const network of evmNetworks) {
    const entry = raw[network] as Partial<EvmChainInfo> | undefined;
    if (!entry || typeof entry.rpcUrl !== 'string' || !Number.isSafeInteger(entry.chainId)) continue;
    const tokens: Partial<Record<CoinCode, `0x${string}`>> = {};
    for (const [coin, address] of Object.entries(entry.tokens ?? {})) {
      if (typeof address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(address))
        tokens[coin as CoinCode] = address as `0x${string}`;
    }
    out[network] = { chainId: entry.chainId as number, rpcUrl: entry.rpcUrl, tokens };
  }
  return out;
}

/**
 * A provider reading `<dataDir>/chains.json`, re-read when its mtime changes; {} while it is
 * missing or unreadable (then no EVM withdrawal is enabled).
 */
export function chainsFileProvider(dataDir: string): ChainsProvider {
  const file = path.join(dataDir, 'chains.json');
  let cached: { mtimeMs: number; chains: EvmChains } | undefined;
  return () => {
    try {
      const { mtimeMs } = statSync(file);
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, chains: parse(readFileSync(file, 'utf8')) };
      return cached.chains;
    } catch {
      return {};
    }
  };
}
