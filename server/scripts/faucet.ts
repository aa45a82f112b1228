/**
 * Sends test funds on the local anvil chains (npm start must be running):
 *   npm run faucet -- <address> <amount> <asset> <network>
 *   npm run faucet -- 0xAbc... 1.5 ETH ethereum
 *   npm run faucet -- 0xAbc... 250 USDT bsc
 * <amount> is a decimal string in whole units, converted to chain units without floats.
 * Native coins come from anvil's pre-funded dev account, tokens are minted by it (it deployed them).
 * The chain is read from DATA_DIR/chains.json (DATA_DIR defaults to <repo>/.data).
 */
import path from 'node:path';
import { type Address, getAddress, type Hex, isAddress } from 'viem';
import artifact from '../contracts/test-token.json' with { type: 'json' };
import { repoRoot } from '../src/config.ts';
import { findCoinNetwork, isCoinCode, minor, networks } from '../src/modules/catalogue/catalogue.ts';
import { evmNetworks } from '../src/modules/catalogue/chains-file.ts';
import { readChainsFile } from '../src/modules/chain/chain-config.ts';
import { DEV_ACCOUNT, devClient } from '../src/modules/chain/local-chains.ts';

function fail(message: string): never {
  console.error(`faucet: ${message}`);
  console.error('usage: npm run faucet -- <address> <amount> <asset> <network>   (network: ethereum | bsc)');
  process.exit(1);
}

const [addressArg, amountArg, assetArg, networkArg] = process.argv.slice(2);
if (!addressArg || !amountArg || !assetArg || !networkArg) fail('four arguments expected');
const asset = assetArg.toUpperCase();
const network = networkArg.toLowerCase();
if (!(evmNetworks as readonly string[]).includes(network)) fail(`network must be one of ${evmNetworks.join(', ')}`);
if (!isAddress(addressArg, { strict: false })) fail(`not an EVM address: ${addressArg}`);
if (!isCoinCode(asset)) fail(`unknown asset ${assetArg}`);
const pair = findCoinNetwork(asset, network as 'ethereum' | 'bsc');
if (!pair) fail(`${asset} is not offered on ${network}`);
let amount: bigint;
try {
  amount = minor(amountArg, pair.chainDecimals);
} catch {
  fail(`amount must be a decimal number with at most ${pair.chainDecimals} decimals: ${amountArg}`);
}
if (amount <= 0n) fail('amount must be positive');

const dataDir = path.resolve(process.env.DATA_DIR?.trim() || path.join(repoRoot, '.data'));
const chain = readChainsFile(dataDir)[network as 'ethereum' | 'bsc'];
if (!chain) fail(`no local ${network} chain in ${dataDir}/chains.json: start the server first (npm start)`);
const client = devClient(chain.rpcUrl, chain.chainId);
const to: Address = getAddress(addressArg);

let hash: Hex;
try {
  if (pair.tokenContract === null) {
    hash = await client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: amount, chain: null });
  } else {
    const token = chain.tokens[asset];
    if (!token) fail(`no ${asset} contract on the local ${network} chain`);
    hash = await client.wallet.writeContract({
      address: token,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, amount],
      account: DEV_ACCOUNT,
      chain: null,
    });
  }
} catch (err) {
  fail(`cannot reach ${chain.rpcUrl} (is the server running?): ${(err as Error).message.split('\n')[0]}`);
}
const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000 });
const native = networks.find((n) => n.code === network)?.nativeCoin;
console.log(
  JSON.stringify({
    network,
    asset,
    amount: amountArg,
    chainUnits: amount.toString(),
    to,
    txHash: hash,
    blockNumber: receipt.blockNumber.toString(),
    status: receipt.status,
    note: `credited after ${pair.confirmations} confirmations${asset === native ? '' : ` (token ${chain.tokens[asset]})`}`,
  }),
);
