import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';
import { evmOrderDeposits } from './evm-deposits.ts';

/**
 * Order deposits as the engine reads them from a local anvil bsc chain (USDT has 18 decimals there,
 * 6 in the ledger). Issue 37, item 8: a dust transfer below the ledger's unit is not the order's deposit.
 */
const HOT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address; // anvil account 3
const ORDER_ADDRESS = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc' as Address; // anvil account 5

describe('order deposits on a local bsc chain', () => {
  let chains: LocalChains;
  let bsc: EvmChainRuntime;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-order-deposits-'));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    chains = await startLocalChains({ dataDir, networks: ['bsc'], hotWallets: { bsc: HOT } });
    const loaded = loadChainConfig(dataDir, {}).bsc;
    if (!loaded) throw new Error('local bsc missing');
    bsc = loaded;
  }, 120_000);
  afterAll(() => chains?.stop());

  async function mintUsdt(to: Address, units: bigint) {
    const client = devClient(bsc.rpcUrl, bsc.chainId);
    const hash = await client.wallet.writeContract({
      address: bsc.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, units],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }

  it('a dust transfer (below 10^12 units: 0 in the ledger) before the real deposit is skipped', async () => {
    const observer = evmOrderDeposits(() => ({ bsc }));
    await mintUsdt(ORDER_ADDRESS, 999_999_999_999n); // 0.000000999999999999 USDT: floors to 0 ledger units
    expect(await observer.observe({ network: 'bsc', coin: 'USDT', address: ORDER_ADDRESS })).toBeNull();
    const real = await mintUsdt(ORDER_ADDRESS, 100n * 10n ** 18n);
    expect(await observer.observe({ network: 'bsc', coin: 'USDT', address: ORDER_ADDRESS })).toMatchObject({
      txHash: real,
      amountMinor: 100_000_000n,
    });
  }, 60_000);

  it("the chain head's time is the latest block's (the engine expires orders by it, issue 37 item 3)", async () => {
    const observer = evmOrderDeposits(() => ({ bsc }));
    const latest = await devClient(bsc.rpcUrl, bsc.chainId).getBlock({ blockTag: 'latest' });
    const head = await observer.headTime?.({ network: 'bsc', coin: 'USDT' });
    expect(head?.getTime()).toBeGreaterThanOrEqual(Number(latest.timestamp) * 1000);
    // Native BNB is read by the block scanner, which needs the database: without it, no head is known.
    expect(await observer.headTime?.({ network: 'bsc', coin: 'BNB' })).toBeNull();
  }, 60_000);
});
