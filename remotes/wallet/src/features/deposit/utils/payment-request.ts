/**
 * An EIP-681 payment request for a deposit (https://eips.ethereum.org/EIPS/eip-681): what a phone
 * wallet scans to pre-fill the transfer, with nothing connected and nothing signed by the app. The
 * token form calls the token's `transfer(address, uint256)` with the user's own deposit address and
 * the amount in the token's smallest unit; the native form pays `value` wei to the address. Amounts
 * are written as plain integers (EIP-681 allows "2.014e18"; some wallets read only digits).
 */
export interface PaymentRequestInput {
  chainId: number;
  depositAddress: `0x${string}`;
  /** The token's contract; null for the network's native coin. */
  token: `0x${string}` | null;
  /** In the chain's smallest unit of the coin (wei, or the token's base unit). */
  amount: bigint;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function paymentRequestUri({ chainId, depositAddress, token, amount }: PaymentRequestInput): string {
  // Assertions: a malformed request would send coins somewhere else or nothing at all.
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`bad chain id ${chainId}`);
  if (!ADDRESS.test(depositAddress)) throw new Error('bad deposit address');
  if (token !== null && !ADDRESS.test(token)) throw new Error('bad token contract');
  if (amount <= 0n) throw new Error('a payment request needs a positive amount');
  if (token) return `ethereum:${token}@${chainId}/transfer?address=${depositAddress}&uint256=${amount}`;
  return `ethereum:${depositAddress}@${chainId}?value=${amount}`;
}
