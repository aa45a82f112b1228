import type { Kysely } from 'kysely';
import { getAddress, type PublicClient, parseAbiItem } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, type NetworkCode, nativeCoinOf, toLedgerMinor } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { createEvmClient } from '../chain/evm-client.ts';
import type { ObservedOrderDeposit, ObservedTransfer, OrderDepositObserver } from './engine.ts';
import { evmNativeOrderDeposits } from './evm-native-deposits.ts';

/**
 * Order deposits on the EVM chains (ethereum, bsc): ERC-20 `Transfer` logs of the coin's token
 * contract to the order's deposit address, read over the same JSON-RPC endpoints and chain config
 * as the wallet's deposit watcher. Confirmations count the deposit's block: tip - block + 1.
 * A reorg that drops the transfer makes it unseen again (the engine then waits).
 *
 * `transfers()` lists every transfer to an order address, of every configured token and the native
 * coin (the engine books those besides the counted deposit as late deposits).
 *
 * Native-coin deposits (ETH, BNB) leave no log: with `db` given they are read by the block scanner
 * of evm-native-deposits.ts (refreshed once per engine tick); without it they are not seen.
 */

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** How far back a deposit is looked for: orders live minutes to hours, this is days of blocks. */
const LOOKBACK_BLOCKS = 50_000n;

export function evmOrderDeposits(
  chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>,
  options: { db?: Kysely<Database>; now?: () => Date; lateDepositWatchMs?: number } = {},
): OrderDepositObserver {
  const clients = new Map<string, PublicClient>();
  const clientFor = (runtime: EvmChainRuntime) => {
    const key = `${runtime.network}|${runtime.chainId}|${runtime.rpcUrl}`;
    let client = clients.get(key);
    if (!client) {
      client = createEvmClient(runtime.rpcUrl);
      clients.set(key, client);
    }
    return client;
  };

  const native = options.db
    ? evmNativeOrderDeposits({
        db: options.db,
        chains,
        clientFor,
        ...(options.now ? { now: options.now } : {}),
        ...(options.lateDepositWatchMs === undefined ? {} : { lateDepositWatchMs: options.lateDepositWatchMs }),
      })
    : null;

  return {
    async refresh() {
      await native?.refresh();
    },
    async transfers({ network, address }: { network: NetworkCode; address: string }) {
      if (network !== 'ethereum' && network !== 'bsc') return [];
      const runtime = chains()[network];
      if (!runtime) return [];
      const client = clientFor(runtime);
      const coinOf = new Map<string, CoinCode>();
      for (const [coin, token] of Object.entries(runtime.tokens))
        if (token) coinOf.set(getAddress(token), coin as CoinCode);
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      const logs =
        coinOf.size === 0
          ? []
          : await client.getLogs({
              address: [...coinOf.keys()] as `0x${string}`[],
              event: transferEvent,
              args: { to: getAddress(address) },
              fromBlock: tip > LOOKBACK_BLOCKS ? tip - LOOKBACK_BLOCKS : 0n,
              toBlock: tip,
            });
      const tokens: ObservedTransfer[] = logs.flatMap((l) => {
        const coin = coinOf.get(getAddress(l.address));
        if (!coin || l.blockNumber === null || l.transactionHash === null || l.logIndex === null) return [];
        return [
          {
            coin,
            txHash: l.transactionHash,
            logIndex: l.logIndex,
            amountMinor: toLedgerMinor(coin, network, l.args.value ?? 0n),
            confirmations: Number(tip - l.blockNumber + 1n),
            blockNumber: l.blockNumber,
          },
        ];
      });
      return [...tokens, ...(native ? await native.transfers(network, address) : [])];
    },
    async hasReceipt({ network, txHash }: { network: NetworkCode; txHash: string }) {
      if (network !== 'ethereum' && network !== 'bsc') return false;
      const runtime = chains()[network];
      if (!runtime) throw new Error(`no ${network} chain`);
      const receipt = await clientFor(runtime)
        .getTransactionReceipt({ hash: txHash as `0x${string}` })
        .catch((err: unknown) => {
          if (err instanceof Error && err.name === 'TransactionReceiptNotFoundError') return null;
          throw err;
        });
      return receipt !== null;
    },
    async headTime({ network, coin }: { network: NetworkCode; coin: CoinCode }) {
      if (network !== 'ethereum' && network !== 'bsc') return null;
      if (coin === nativeCoinOf(network)) return native ? native.headTime(network) : null;
      const runtime = chains()[network];
      if (!runtime) return null;
      // The latest block: observe() then reads the logs up to a tip at or above it.
      const block = await clientFor(runtime).getBlock({ blockTag: 'latest' });
      return new Date(Number(block.timestamp) * 1000);
    },
    async observe({ network, coin, address }: { network: NetworkCode; coin: CoinCode; address: string }) {
      if (network !== 'ethereum' && network !== 'bsc') return null;
      if (coin === nativeCoinOf(network)) return native ? native.observe(network, address) : null;
      const runtime = chains()[network];
      const token = runtime?.tokens[coin];
      if (!runtime || !token) return null;
      const client = clientFor(runtime);
      // No cached tip (viem caches it for its polling interval): confirmations must count every block.
      const tip = await client.getBlockNumber({ cacheTime: 0 });
      const logs = await client.getLogs({
        address: token,
        event: transferEvent,
        args: { to: getAddress(address) },
        fromBlock: tip > LOOKBACK_BLOCKS ? tip - LOOKBACK_BLOCKS : 0n,
        toBlock: tip,
      });
      // Dust below the ledger's unit (BSC tokens: 18 chain decimals, 6 in the ledger) is no deposit: it
      // would book 0 and hide the real one behind it.
      const first = logs
        .filter(
          (l) =>
            l.blockNumber !== null &&
            l.transactionHash !== null &&
            toLedgerMinor(coin, network, l.args.value ?? 0n) > 0n,
        )
        .sort((a, b) =>
          a.blockNumber === b.blockNumber
            ? (a.logIndex ?? 0) - (b.logIndex ?? 0)
            : (a.blockNumber as bigint) < (b.blockNumber as bigint)
              ? -1
              : 1,
        )[0];
      if (!first) return null;
      const block = await client.getBlock({ blockNumber: first.blockNumber as bigint });
      const seen: ObservedOrderDeposit = {
        txHash: first.transactionHash as string,
        amountMinor: toLedgerMinor(coin, network, first.args.value as bigint),
        confirmations: Number(tip - (first.blockNumber as bigint) + 1n),
        blockTime: new Date(Number(block.timestamp) * 1000),
        logIndex: first.logIndex ?? 0,
      };
      return seen;
    },
  };
}
