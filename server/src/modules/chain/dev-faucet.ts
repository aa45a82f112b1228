/**
 * Test funds on the local anvil chains, from anvil's pre-funded dev account: native coins are sent,
 * tokens are minted by it (it deployed them). Shared by `npm run faucet` (server/scripts/faucet.ts)
 * and the e2e specs, which call it in their own process instead of spawning the script each time.
 * Development chains only: the chain is read from `dataDir`/chains.json, written by the local chains.
 */
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { findCoinNetwork, isCoinCode, minor, networks } from '../catalogue/catalogue.ts';
import { type EvmNetwork, evmNetworks } from '../catalogue/chains-file.ts';
import { readChainsFile } from './chain-config.ts';
import { DEV_ACCOUNT, devClient } from './local-chains.ts';

/** A request the faucet refuses (bad argument, no local chain): the message says which. */
export class FaucetError extends Error {}

export interface FaucetRequest {
  /** An EVM address (any case). */
  address: string;
  /** A decimal string in whole units, converted to chain units without floats. */
  amount: string;
  asset: string;
  network: string;
  /** The server's data folder holding chains.json. */
  dataDir: string;
  /** How long to wait for the receipt. */
  receiptTimeoutMs?: number;
}

export interface FaucetResult {
  network: EvmNetwork;
  asset: string;
  amount: string;
  chainUnits: string;
  to: Address;
  txHash: Hex;
  blockNumber: string;
  status: 'success' | 'reverted';
  note: string;
}

/** Sends (native) or mints (token) `amount` of `asset` to `address` and waits for the receipt. */
export async function faucetSend(request: FaucetRequest): Promise<FaucetResult> {
  const asset = request.asset.toUpperCase();
  const network = request.network.toLowerCase() as EvmNetwork;
  if (!(evmNetworks as readonly string[]).includes(network)) {
    throw new FaucetError(`network must be one of ${evmNetworks.join(', ')}`);
  }
  if (!isAddress(request.address, { strict: false })) throw new FaucetError(`not an EVM address: ${request.address}`);
  if (!isCoinCode(asset)) throw new FaucetError(`unknown asset ${request.asset}`);
  const pair = findCoinNetwork(asset, network);
  if (!pair) throw new FaucetError(`${asset} is not offered on ${network}`);
  let amount: bigint;
  try {
    amount = minor(request.amount, pair.chainDecimals);
  } catch {
    throw new FaucetError(
      `amount must be a decimal number with at most ${pair.chainDecimals} decimals: ${request.amount}`,
    );
  }
  if (amount <= 0n) throw new FaucetError('amount must be positive');

  const chain = readChainsFile(request.dataDir)[network];
  if (!chain) {
    throw new FaucetError(
      `no local ${network} chain in ${request.dataDir}/chains.json: start the server first (npm start)`,
    );
  }
  const token = pair.tokenContract === null ? null : chain.tokens[asset];
  if (token === undefined) throw new FaucetError(`no ${asset} contract on the local ${network} chain`);
  const client = devClient(chain.rpcUrl, chain.chainId);
  const to = getAddress(request.address);

  let hash: Hex;
  try {
    hash =
      token === null
        ? await client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: amount, chain: null })
        : await client.wallet.writeContract({
            address: token,
            abi: artifact.abi,
            functionName: 'mint',
            args: [to, amount],
            account: DEV_ACCOUNT,
            chain: null,
          });
  } catch (err) {
    throw new FaucetError(
      `cannot reach ${chain.rpcUrl} (is the server running?): ${(err as Error).message.split('\n')[0]}`,
    );
  }
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: request.receiptTimeoutMs ?? 60_000 });
  const native = networks.find((n) => n.code === network)?.nativeCoin;
  return {
    network,
    asset,
    amount: request.amount,
    chainUnits: amount.toString(),
    to,
    txHash: hash,
    blockNumber: receipt.blockNumber.toString(),
    status: receipt.status,
    note: `credited after ${pair.confirmations} confirmations${asset === native ? '' : ` (token ${token})`}`,
  };
}
