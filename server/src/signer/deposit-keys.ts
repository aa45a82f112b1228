import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { bytesToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { accountPaths, MAX_ADDRESS_INDEX } from '../modules/chain/derive.ts';
import { USER_BRANCH } from '../modules/custody/sweeps-repository.ts';
import { ORDER_BRANCH } from '../modules/exchange/deposit-address.ts';
import type { SignerOptions } from './signer-types.ts';

/** Keys kept in memory at most (a sweep round touches a few dozen addresses). */
const CACHE_MAX = 1_000;

/**
 * The keys of the users' deposit addresses, `<account path>/0/<index>` (chain/derive.ts: the API derives
 * the same addresses from the xpub), and of exchange order addresses, `<account path>/2/<index>`
 * (exchange/deposit-address.ts, ORDER_BRANCH), for the sweeper. Only the signer process calls this.
 */
export function depositKeys(
  mnemonic: string,
): (network: EvmNetwork, index: number, branch?: number) => SignerOptions['account'] {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const cache = new Map<string, SignerOptions['account']>();
  return (network, index, branch = USER_BRANCH) => {
    if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX)
      throw new Error(`bad address index ${index}`);
    if (branch !== USER_BRANCH && branch !== ORDER_BRANCH) throw new Error(`bad key branch ${branch}`);
    const path = `${accountPaths[network]}/${branch}/${index}`;
    const known = cache.get(path);
    if (known) return known;
    const key = root.derive(path).privateKey;
    if (!key) throw new Error(`no private key at ${path}`);
    const account = privateKeyToAccount(bytesToHex(key));
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(path, account);
    return account;
  };
}
