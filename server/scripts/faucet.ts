/**
 * Sends test funds on the local anvil chains (npm start must be running):
 *   npm run faucet -- <address> <amount> <asset> <network>
 *   npm run faucet -- 0xAbc... 1.5 ETH ethereum
 *   npm run faucet -- 0xAbc... 250 USDT bsc
 * <amount> is a decimal string in whole units, converted to chain units without floats.
 * Native coins come from anvil's pre-funded dev account, tokens are minted by it (it deployed them).
 * The chain is read from DATA_DIR/chains.json (DATA_DIR defaults to <repo>/.data).
 * The work is done by modules/chain/dev-faucet.ts, which the e2e specs call in their own process.
 */
import path from 'node:path';
import { repoRoot } from '../src/config.ts';
import { FaucetError, faucetSend } from '../src/modules/chain/dev-faucet.ts';

function fail(message: string): never {
  console.error(`faucet: ${message}`);
  console.error('usage: npm run faucet -- <address> <amount> <asset> <network>   (network: ethereum | bsc)');
  process.exit(1);
}

const [address, amount, asset, network] = process.argv.slice(2);
if (!address || !amount || !asset || !network) fail('four arguments expected');
const dataDir = path.resolve(process.env.DATA_DIR?.trim() || path.join(repoRoot, '.data'));
try {
  console.log(JSON.stringify(await faucetSend({ address, amount, asset, network, dataDir })));
} catch (err) {
  if (err instanceof FaucetError) fail(err.message);
  throw err;
}
