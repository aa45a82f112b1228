/**
 * What a scanned QR code asks to pay, read strictly (issue 40 item 3). An EIP-681 request
 * `ethereum:<target>[@<chainId>][/<function>][?<params>]` names a contract as its target when it is a
 * token transfer: the recipient is then the `address` parameter, never the target (the token contract),
 * and the amount is `uint256` in the token's units. Anything this app cannot pay exactly as asked (a
 * chain other than the selected network's, a function other than `transfer`, an ENS name, a malformed
 * number) is refused rather than reduced to "the first address in the text".
 */

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A non-negative integer, or EIP-681's scientific form ("2.014e18") that is still an integer. */
const EIP681_NUMBER = /^(\d+)(?:\.(\d+))?(?:e(\d+))?$/i;
const MAX_URI_CHARS = 2000;

export type PaymentRequest =
  /** Plain text or a non-EVM payment URI (bitcoin:, tron:...): just an address. */
  | { kind: 'address'; address: string }
  | { kind: 'native'; address: string; chainId: number | null; amountWei: bigint | null }
  | { kind: 'token'; address: string; token: string; chainId: number | null; amountUnits: bigint | null };

export type PaymentUriProblem = 'chain' | 'function' | 'malformed' | 'asset';
export type PaymentUriRead = { ok: true; request: PaymentRequest } | { ok: false; problem: PaymentUriProblem };

/** "2.014e18" -> 2014000000000000000n; null when absent; undefined when not an integer. */
function eip681Integer(text: string | null): bigint | null | undefined {
  if (text === null) return null;
  const match = EIP681_NUMBER.exec(text);
  if (!match) return undefined;
  const [, whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (exponent > 77 || fraction.replace(/0+$/, '').length > exponent) return undefined;
  return BigInt(whole + fraction.padEnd(exponent, '0'));
}

function readEthereum(body: string, expectedChainId: number | null): PaymentUriRead {
  const malformed = { ok: false, problem: 'malformed' } as const;
  const [path = '', query = ''] = body.split('?', 2);
  const match = /^(?:pay-)?([^@/]+)(?:@(\d+))?(?:\/([A-Za-z_][A-Za-z0-9_]*))?$/.exec(path);
  if (!match) return malformed;
  const [, target = '', chainText, fn] = match;
  if (!EVM_ADDRESS.test(target)) return malformed;
  const chainId = chainText === undefined ? null : Number(chainText);
  if (chainId !== null && expectedChainId !== null && chainId !== expectedChainId)
    return { ok: false, problem: 'chain' };
  const params = new URLSearchParams(query);
  if (fn === undefined) {
    const amountWei = eip681Integer(params.get('value'));
    if (amountWei === undefined) return malformed;
    return { ok: true, request: { kind: 'native', address: target, chainId, amountWei } };
  }
  if (fn !== 'transfer') return { ok: false, problem: 'function' };
  const recipient = params.get('address');
  const amountUnits = eip681Integer(params.get('uint256'));
  if (!recipient || !EVM_ADDRESS.test(recipient) || amountUnits === undefined || params.has('value')) return malformed;
  return { ok: true, request: { kind: 'token', address: recipient, token: target, chainId, amountUnits } };
}

/**
 * Reads a scanned text. `expectedChainId`: the selected network's EIP-155 chain id (null for a network
 * without one): an `ethereum:` request for another chain is refused.
 */
export function readPaymentUri(text: string, expectedChainId: number | null): PaymentUriRead {
  const trimmed = text.trim();
  if (trimmed.length > MAX_URI_CHARS) return { ok: false, problem: 'malformed' };
  const scheme = /^([a-z][a-z0-9+.-]*):(?:\/\/)?/i.exec(trimmed);
  if (!scheme) return { ok: true, request: { kind: 'address', address: trimmed } };
  const body = trimmed.slice(scheme[0].length);
  if (scheme[1]?.toLowerCase() === 'ethereum') return readEthereum(body, expectedChainId);
  // BIP-21 and alike (bitcoin:, dogecoin:, tron:): the address is the path.
  const address = body.split(/[?@/]/)[0] ?? '';
  return address === '' ? { ok: false, problem: 'malformed' } : { ok: true, request: { kind: 'address', address } };
}

/** What the screen is paying: the selected network's chain id and the coin's contract (null: native). */
export interface PaymentContext {
  /** The selected network's EIP-155 chain id; null for a network without one (TRON, Bitcoin). */
  chainId: number | null;
  /** The selected coin's contract, null for the native coin; 'any' where no coin is chosen (an address-book entry). */
  token: string | null | 'any';
}

/**
 * Where only a network is chosen (an address-book entry): a request for another chain is refused, any
 * asset on it is fine. `chainId` null (TRON, Bitcoin; or an internal transfer, which names no chain):
 * every EVM payment request is refused, a plain address is read.
 */
export function networkPaymentContext(chainId: number | null): PaymentContext {
  return { chainId, token: 'any' };
}

/**
 * `readPaymentUri` against the screen's selection: an EIP-681 request for a token (or the native coin)
 * other than the selected coin is refused too, so a scanned request never pays another asset.
 */
export function readPaymentFor(text: string, context: PaymentContext | undefined): PaymentUriRead {
  const read = readPaymentUri(text, context?.chainId ?? null);
  if (!read.ok || !context || read.request.kind === 'address') return read;
  const { request } = read;
  // An EVM payment request while a network without a chain id (TRON, Bitcoin) is selected.
  if (context.chainId === null) return { ok: false, problem: 'chain' };
  if (context.token === 'any') return read;
  const wantsToken = request.kind === 'token' ? request.token.toLowerCase() : null;
  if (wantsToken !== (context.token?.toLowerCase() ?? null)) return { ok: false, problem: 'asset' };
  return read;
}
