import { getAddress, type Hex, isAddress, isHex } from 'viem';
import { type AllowedTransaction, assertAllowed, type ChainAllowlist, UnsafeTransactionError } from './safety.ts';

/**
 * The wallet guard's check of eth_sendTransaction itself: the kit states the one transaction it is about
 * to send (`expectTransaction`, checked by assertAllowed against the catalogue), and the guard lets
 * through only an eth_sendTransaction whose parameters are exactly that transaction, once. Whatever
 * else reaches the provider (an `approve` built elsewhere, a second send, another chain, an EIP-7702
 * authorization) is refused before the wallet sees it.
 */
export interface ExpectedTransaction {
  intent: AllowedTransaction;
  chainId: number;
  chain: ChainAllowlist;
  from: Hex;
}

/** At most this many sends may be expected at once (a check-in and a deposit); more is a bug. */
const MAX_EXPECTED = 4;
const expected = new Set<ExpectedTransaction>();

function refuse(why: string): never {
  throw new UnsafeTransactionError(`refused to ask the wallet for eth_sendTransaction: ${why}`);
}

/** Arms the guard for one matching eth_sendTransaction; call the returned function when the send is over. */
export function expectTransaction(transaction: ExpectedTransaction): () => void {
  if (expected.size >= MAX_EXPECTED) refuse('too many transactions expected at once');
  expected.add(transaction);
  return () => {
    expected.delete(transaction);
  };
}

/** The fields a plain transaction may carry; anything else (authorizationList, blobs…) is refused. */
const ALLOWED_FIELDS = new Set([
  'from',
  'to',
  'value',
  'data',
  'input',
  'gas',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'nonce',
  'chainId',
  'type',
  'accessList',
]);
const ALLOWED_TYPES = new Set(['0x0', '0x1', '0x2']);

interface SendParameters {
  from: Hex | undefined;
  to: Hex;
  value: bigint;
  data: Hex | undefined;
  chainId: number | undefined;
}

function quantity(value: unknown, field: string): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) refuse(`${field} is not a quantity`);
  return BigInt(value);
}

/** The one transaction object of eth_sendTransaction's params, read strictly. */
export function readSendParameters(params: unknown): SendParameters {
  if (!Array.isArray(params) || params.length !== 1) refuse('params must be one transaction');
  const tx: unknown = params[0];
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) refuse('params must be one transaction');
  const fields = tx as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!ALLOWED_FIELDS.has(key)) refuse(`unexpected field ${key}`);
  if (fields.type !== undefined && !ALLOWED_TYPES.has(String(fields.type))) refuse(`transaction type ${fields.type}`);
  if (fields.accessList !== undefined && !(Array.isArray(fields.accessList) && fields.accessList.length === 0))
    refuse('an access list');
  const { to, from, data, input } = fields;
  if (typeof to !== 'string' || !isAddress(to, { strict: false })) refuse('no recipient');
  if (from !== undefined && (typeof from !== 'string' || !isAddress(from, { strict: false }))) refuse('bad sender');
  for (const bytes of [data, input])
    if (bytes !== undefined && (typeof bytes !== 'string' || !isHex(bytes))) refuse('call data is not hex');
  if (data !== undefined && input !== undefined && data !== input) refuse('data and input differ');
  const chainId = quantity(fields.chainId, 'chainId');
  return {
    to: to as Hex,
    from: from as Hex | undefined,
    value: quantity(fields.value, 'value') ?? 0n,
    data: (data ?? input) as Hex | undefined,
    chainId: chainId === undefined ? undefined : Number(chainId),
  };
}

/**
 * Throws unless `params` is exactly one expected transaction on the wallet's current chain; the match
 * is used up (a replay of the same request is refused).
 */
export function takeExpectedTransaction(params: unknown, walletChainId: number): void {
  const tx = readSendParameters(params);
  let why = 'no transaction of the app is being sent';
  for (const candidate of expected) {
    try {
      if (candidate.chainId !== walletChainId) refuse('the wallet is on another chain');
      if (tx.chainId !== undefined && tx.chainId !== candidate.chainId) refuse('for another chain');
      if (tx.from !== undefined && getAddress(tx.from) !== getAddress(candidate.from)) refuse('from another account');
      assertAllowed(candidate.intent, { to: tx.to, value: tx.value, data: tx.data }, candidate.chain);
    } catch (err) {
      why = err instanceof Error ? err.message : String(err);
      continue;
    }
    expected.delete(candidate);
    return;
  }
  refuse(why);
}

/** wallet_requestPermissions asks for the accounts and nothing else: exactly [{ eth_accounts: {} }]. */
export function isAccountsPermissionRequest(params: unknown): boolean {
  if (!Array.isArray(params) || params.length !== 1) return false;
  const [request] = params as unknown[];
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return false;
  const keys = Object.keys(request);
  if (keys.length !== 1 || keys[0] !== 'eth_accounts') return false;
  const caveats = (request as Record<string, unknown>).eth_accounts;
  return (
    typeof caveats === 'object' && caveats !== null && !Array.isArray(caveats) && Object.keys(caveats).length === 0
  );
}
