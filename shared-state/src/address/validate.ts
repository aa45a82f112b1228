import { sha256 } from '@noble/hashes/sha2';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { getAddress, isAddress } from 'viem';

/** Networks whose addresses we can check; the same codes as the server catalogue's networks. */
export const addressNetworks = ['bitcoin', 'ethereum', 'bsc', 'tron', 'dogecoin'] as const;
export type AddressNetwork = (typeof addressNetworks)[number];

/** Longer input is refused before any decoding (the longest valid address, bech32m P2TR, has 62 characters). */
const ADDRESS_LENGTH_MAX = 100;

const base58check = createBase58check(sha256);

/** Base58check payload: one version byte and a 20-byte hash (P2PKH, P2SH, TRON). */
function base58Version(address: string): number | null {
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 ? (payload[0] ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * EVM: 0x + 40 hex digits. Mixed case must carry a valid EIP-55 checksum; all-lower-case
 * (no checksum information) is accepted, as wallets do.
 */
function isEvmAddress(address: string): boolean {
  return isAddress(address, { strict: true }) && !isEvmBurnAddress(address);
}

/**
 * Where coins are lost for good: the zero address (no key) and the precompiled contracts
 * 0x…01 to 0x…0a (code, no owner). Well-formed, but never a destination.
 */
const EVM_LAST_PRECOMPILE = 0x0an;
function isEvmBurnAddress(address: string): boolean {
  return BigInt(address) <= EVM_LAST_PRECOMPILE;
}

/** TRON: base58check of 0x41 || 20-byte hash, always starting with T. */
function isTronAddress(address: string): boolean {
  if (!address.startsWith('T') || base58Version(address) !== 0x41) return false;
  // TRON's zero address (T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb) burns what is sent to it.
  return base58check
    .decode(address)
    .slice(1)
    .some((byte) => byte !== 0);
}

/**
 * Bitcoin mainnet: P2PKH (version 0x00, "1..."), P2SH (0x05, "3..."), segwit v0 bech32 (BIP-173:
 * 20- or 32-byte program) and v1..v16 bech32m (BIP-350: 2..40-byte program, 32 for taproot).
 */
function isBitcoinAddress(address: string): boolean {
  if (address.startsWith('1') || address.startsWith('3')) {
    const version = base58Version(address);
    return version === 0x00 || version === 0x05;
  }
  if (!/^bc1/i.test(address)) return false;
  // Mixed case is invalid in bech32; the decoders below enforce it too.
  try {
    const v0 = bech32.decode(address as `${string}1${string}`);
    if (v0.prefix !== 'bc' || v0.words[0] !== 0) return false;
    const program = bech32.fromWords(v0.words.slice(1));
    return program.length === 20 || program.length === 32;
  } catch {
    // not bech32: try bech32m below
  }
  try {
    const v1 = bech32m.decode(address as `${string}1${string}`);
    const version = v1.words[0] ?? -1;
    if (v1.prefix !== 'bc' || version < 1 || version > 16) return false;
    const program = bech32m.fromWords(v1.words.slice(1));
    if (version === 1) return program.length === 32;
    return program.length >= 2 && program.length <= 40;
  } catch {
    return false;
  }
}

/** Dogecoin mainnet: P2PKH (version 0x1e, "D...") and P2SH (0x16, "9..." or "A..."). */
function isDogecoinAddress(address: string): boolean {
  const version = base58Version(address);
  return version === 0x1e || version === 0x16;
}

const validators: Record<AddressNetwork, (address: string) => boolean> = {
  bitcoin: isBitcoinAddress,
  ethereum: isEvmAddress,
  bsc: isEvmAddress,
  tron: isTronAddress,
  dogecoin: isDogecoinAddress,
};

export function isAddressNetwork(value: unknown): value is AddressNetwork {
  return typeof value === 'string' && (addressNetworks as readonly string[]).includes(value);
}

/**
 * True when `address` is a well-formed address of `network` (checksums verified). An address of
 * another network, surrounding white space or an unknown network is invalid.
 */
export function isValidAddress(network: string, address: string): boolean {
  if (!isAddressNetwork(network) || typeof address !== 'string') return false;
  if (address.length === 0 || address.length > ADDRESS_LENGTH_MAX) return false;
  return validators[network](address);
}

/**
 * The one spelling we store and compare: EIP-55 checksummed for EVM networks, lower case for
 * bech32, unchanged for base58 (which is case-sensitive). Only for valid addresses.
 */
export function canonicalAddress(network: AddressNetwork, address: string): string {
  if (!isValidAddress(network, address)) throw new Error(`not a valid ${network} address`);
  if (network === 'ethereum' || network === 'bsc') return getAddress(address);
  if (network === 'bitcoin' && /^bc1/i.test(address)) return address.toLowerCase();
  return address;
}
