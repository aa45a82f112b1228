import { HDKey } from '@scure/bip32';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { addressOfPublicKey, MAX_ADDRESS_INDEX } from '../chain/derive.ts';

/**
 * Exchange orders get their own deposit address, derived from the same account xpubs as the
 * wallet's deposit addresses but on another branch: users' addresses are `<xpub>/0/<i>`, orders'
 * are `<xpub>/ORDER_BRANCH/<i>`, so the two index ranges can never give the same address. The index
 * comes from the `exchange_order_deposit_index_seq` sequence (one per order, never reused).
 */
export const ORDER_BRANCH = 2;

export function deriveOrderDepositAddress(network: NetworkCode, accountXpub: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) {
    throw new Error(`order address index out of range: ${index}`);
  }
  const node = HDKey.fromExtendedKey(accountXpub).deriveChild(ORDER_BRANCH).deriveChild(index);
  if (!node.publicKey) throw new Error('derivation gave no public key');
  return addressOfPublicKey(network, node.publicKey);
}
