import { decodeFunctionData, getAddress, type Hex, parseAbi } from 'viem';

/**
 * The only transactions this app ever asks a wallet to send (the wallet-safety rule): a call of
 * `checkIn(bytes32)` on the check-in contract with no value, or a deposit to the user's own deposit
 * address — native value with no data, or a token's `transfer(depositAddress, amount)` with no
 * value. Every request goes through `assertAllowed` right before the wallet sees it, so a bug (or a
 * tampered response) can never turn a prompt into an approval. The app has no code for approvals,
 * permits or signatures at all; scripts/wallet-safety checks the built bundles for them.
 */
export const checkInAbi = parseAbi([
  'function checkIn(bytes32 memberTag)',
  'function checkedInToday(address wallet) view returns (bool)',
  'error AlreadyCheckedIn(uint64 day)',
]);
export const tokenTransferAbi = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
]);

/**
 * A deposit states its coin: native value is allowed only for the network's native coin, a transfer
 * only on the catalogue's contract of that coin (a token whose contract the server does not know must
 * never become a native-value prompt: 100 TUSD asking for 100 BNB).
 */
export type AllowedTransaction =
  | { kind: 'check-in'; contract: Hex; memberTag: Hex }
  | { kind: 'native-deposit'; coin: string; depositAddress: Hex; amount: bigint }
  | { kind: 'token-deposit'; coin: string; token: Hex; depositAddress: Hex; amount: bigint };

/** What the catalogue says of the chain the request is for: the reference every intent is checked against. */
export interface ChainAllowlist {
  nativeSymbol: string;
  /** Coin -> its token contract on this chain (only those the server has configured). */
  tokens: Readonly<Record<string, Hex>>;
  checkInContract: Hex | null;
}

export interface TransactionRequest {
  to: Hex;
  value: bigint;
  data: Hex | undefined;
}

export class UnsafeTransactionError extends Error {
  override readonly name = 'UnsafeTransactionError';
}

function same(a: string, b: string): boolean {
  return getAddress(a) === getAddress(b);
}

function refuse(why: string): never {
  throw new UnsafeTransactionError(`refused to ask the wallet for this transaction: ${why}`);
}

/** The intent itself against the catalogue: the right kind for the coin, the catalogue's contracts. */
function assertIntentMatchesChain(intent: AllowedTransaction, chain: ChainAllowlist): void {
  if (intent.kind === 'native-deposit') {
    if (intent.coin !== chain.nativeSymbol) refuse(`native value for ${intent.coin}, not the network's native coin`);
    return;
  }
  if (intent.kind === 'token-deposit') {
    const known = chain.tokens[intent.coin];
    if (!known || !same(known, intent.token)) refuse(`${intent.coin} is not the catalogue's contract on this chain`);
    return;
  }
  if (!chain.checkInContract || !same(chain.checkInContract, intent.contract))
    refuse("check-in on a contract that is not the catalogue's");
}

/**
 * The deposit the catalogue allows for `coin` on `chain`: native value for its native coin, a transfer on
 * its configured contract for a token; an UnsafeTransactionError for a coin it has no contract of.
 */
export function depositIntent(
  chain: ChainAllowlist,
  input: { coin: string; depositAddress: Hex; amount: bigint },
): AllowedTransaction {
  const { coin, depositAddress, amount } = input;
  if (coin === chain.nativeSymbol) return { kind: 'native-deposit', coin, depositAddress, amount };
  const token = chain.tokens[coin];
  if (!token) refuse(`no token contract of ${coin} on this chain`);
  return { kind: 'token-deposit', coin, token, depositAddress, amount };
}

/**
 * Throws unless `intent` agrees with the catalogue's `chain` (native coin, token and check-in contracts)
 * and `request` is exactly the allowed transaction `intent` describes.
 */
export function assertAllowed(intent: AllowedTransaction, request: TransactionRequest, chain: ChainAllowlist): void {
  assertIntentMatchesChain(intent, chain);
  if (intent.kind === 'native-deposit') {
    if (!same(request.to, intent.depositAddress)) refuse('native value to an address that is not the deposit address');
    if (request.data !== undefined && request.data !== '0x') refuse('data on a native deposit');
    if (request.value !== intent.amount || intent.amount <= 0n) refuse('value differs from the typed amount');
    return;
  }
  if (request.value !== 0n) refuse('value on a contract call');
  if (!request.data) refuse('no call data');
  if (intent.kind === 'check-in') {
    if (!same(request.to, intent.contract)) refuse('check-in on another contract');
    const call = decodeFunctionData({ abi: checkInAbi, data: request.data as Hex });
    if (call.functionName !== 'checkIn' || call.args[0] !== intent.memberTag) refuse('not checkIn(memberTag)');
    return;
  }
  if (!same(request.to, intent.token)) refuse('transfer on another token');
  const call = decodeFunctionData({ abi: tokenTransferAbi, data: request.data as Hex });
  if (call.functionName !== 'transfer') refuse('not transfer');
  const [to, amount] = call.args as readonly [Hex, bigint];
  if (!same(to, intent.depositAddress)) refuse('transfer to an address that is not the deposit address');
  if (amount !== intent.amount || amount <= 0n) refuse('amount differs from the typed amount');
}
