import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address } from 'viem';
import { type EvmChainRuntime, loadChainConfig } from './chain-config.ts';
import { devClient, type LocalChains, startLocalChains } from './local-chains.ts';

export interface TestChain {
  dataDir: string;
  chains: LocalChains;
  runtime: EvmChainRuntime;
  client: ReturnType<typeof devClient>;
}

/** Tests only: a local ethereum anvil (automine) in a fresh temporary DATA_DIR, the hot wallet funded when given. */
export async function startTestChain(prefix: string, hotWallet?: Address): Promise<TestChain> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const chains = await startLocalChains({
    dataDir,
    networks: ['ethereum'],
    hotWallets: hotWallet ? { ethereum: hotWallet } : {},
  });
  const runtime = loadChainConfig(dataDir, {}).ethereum;
  if (!runtime) throw new Error('no ethereum chain');
  return { dataDir, chains, runtime, client: devClient(runtime.rpcUrl, runtime.chainId) };
}
