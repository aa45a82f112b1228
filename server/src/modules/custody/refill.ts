import type { Kysely } from 'kysely';
import { type Address, createPublicClient, erc20Abi, getAddress, type Hash, http, parseEventLogs } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinNetworks, nativeCoinOf } from '../catalogue/catalogue.ts';
import { type EvmNetwork, evmNetworks } from '../catalogue/chains-file.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { chainAsset, move, postCustody } from './custody-book.ts';
import { sweepTransactionHashes } from './sweeps-repository.ts';

/**
 * `npm run ops -- custody refill <network> <txHash>`: books coins sent to a hot wallet from outside (an
 * operator refilling it) into its custody account. The transaction is read on chain, never typed in: its
 * native value to the hot wallet and every Transfer of a catalogue token to it, mined after the book's
 * opening and successful. Idempotent per transaction and log (running it twice books nothing more); our own
 * sweeps and withdrawals are refused (they are booked when mined). Exit: 0 booked, 1 refused, 2 usage.
 */
export const custodyUsage = 'usage: npm run ops -- custody refill <ethereum|bsc> <0x transaction hash>';

interface Incoming {
  coin: CoinCode;
  chainAmount: bigint;
  /** Log index of a token Transfer, -1 for the native value. */
  index: number;
}

async function ours(db: Kysely<Database>, hash: string): Promise<boolean> {
  if ((await sweepTransactionHashes(db, [hash])).has(hash)) return true;
  const paid = await db.selectFrom('signer_transactions').select('id').where('tx_hash', '=', hash).executeTakeFirst();
  return paid !== undefined;
}

/** What the mined transaction brought to `hot` (native value and catalogue-token Transfers), or why nothing. */
async function incoming(
  rpcUrl: string,
  tokens: Partial<Record<CoinCode, Address>>,
  network: EvmNetwork,
  hash: Hash,
  hot: Address,
) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const receipt = await client.getTransactionReceipt({ hash }).catch(() => undefined);
  if (!receipt) return 'no such mined transaction on this chain';
  if (receipt.status !== 'success') return 'the transaction reverted';
  const tx = await client.getTransaction({ hash });
  const found: Incoming[] = [];
  if (tx.to && getAddress(tx.to) === hot && tx.value > 0n)
    found.push({ coin: nativeCoinOf(network), chainAmount: tx.value, index: -1 });
  const byToken = new Map(
    coinNetworks
      .filter((p) => p.network === network && tokens[p.coin])
      .map((p) => [getAddress(tokens[p.coin] as Address), p.coin] as const),
  );
  for (const log of parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })) {
    const coin = byToken.get(getAddress(log.address));
    if (coin && getAddress(log.args.to) === hot && log.args.value > 0n)
      found.push({ coin, chainAmount: log.args.value, index: log.logIndex });
  }
  return { found, block: receipt.blockNumber };
}

export async function runCustodyCommand(
  db: Kysely<Database>,
  args: readonly string[],
  out: (line: string) => void,
  env: { dataDir: string; env: NodeJS.ProcessEnv },
  now: () => Date = () => new Date(),
): Promise<number> {
  const [sub, network, hash] = args;
  if (sub !== 'refill' || !evmNetworks.includes(network as EvmNetwork) || !/^0x[0-9a-fA-F]{64}$/.test(hash ?? '')) {
    out(custodyUsage);
    return 2;
  }
  const net = network as EvmNetwork;
  const txHash = (hash as string).toLowerCase() as Hash;
  const opening = await db.selectFrom('custody_openings').selectAll().where('network', '=', net).executeTakeFirst();
  const runtime = loadChainConfig(env.dataDir, env.env)[net];
  if (!opening || !runtime) {
    out(`the ${net} custody book is not opened (the signer opens it) or the chain is not configured`);
    return 1;
  }
  if (await ours(db, txHash)) {
    out('this is one of our own withdrawals or sweeps: it is booked when mined');
    return 1;
  }
  const read = await incoming(runtime.rpcUrl, runtime.tokens, net, txHash, getAddress(opening.address));
  if (typeof read === 'string') {
    out(read);
    return 1;
  }
  if (read.block <= BigInt(opening.block_number)) {
    out(
      `mined at block ${read.block}, not after the opening at ${opening.block_number}: already in the opening balance`,
    );
    return 1;
  }
  if (read.found.length === 0) {
    out('the transaction sent nothing to the hot wallet');
    return 1;
  }
  await db.transaction().execute(async (trx) => {
    for (const f of read.found) {
      const asset = chainAsset(f.coin, net);
      const [posted] = await postCustody(
        trx,
        `custody:refill:${net}:${txHash}:${f.index}`,
        move('system_external', 'system_hot_wallet', asset, f.chainAmount),
        { txHash, block: read.block.toString() },
        now(),
      );
      const what = posted?.created ? 'booked' : 'already booked';
      out(`${what}: ${f.chainAmount} ${asset} into the hot wallet's custody account`);
    }
  });
  return 0;
}
