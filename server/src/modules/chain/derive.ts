import { secp256k1 } from '@noble/curves/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58check, bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { getAddress } from 'viem';
import type { NetworkCode } from '../catalogue/catalogue.ts';

/**
 * Deposit address derivation from account-level extended PUBLIC keys: the API process only ever
 * sees xpubs, so it can derive addresses but never sign.
 *
 * Account paths (the keygen child derives the xpub at these; the API derives `<xpub>/0/<index>`):
 * - ethereum: BIP44 m/44'/60'/0'   -> EIP-55 address
 * - bsc:      BIP44 m/44'/9006'/0' (SLIP-44 coin type of BNB Smart Chain), a separate tree so an
 *             index never gives the same address to two users on ethereum and bsc
 * - tron:     BIP44 m/44'/195'/0'  -> base58check(0x41 || keccak(pubkey)[12..])
 * - bitcoin:  BIP84 m/84'/0'/0'    -> bech32 P2WPKH (witness v0, hash160 of the compressed key)
 * - dogecoin: BIP44 m/44'/3'/0'    -> base58check P2PKH, version 0x1e ("D...")
 */
export const accountPaths: Record<NetworkCode, string> = {
  ethereum: "m/44'/60'/0'",
  bsc: "m/44'/9006'/0'",
  tron: "m/44'/195'/0'",
  bitcoin: "m/84'/0'/0'",
  dogecoin: "m/44'/3'/0'",
};

/** The hot wallet (EVM networks, both chains): the signer derives its private key here. */
export const hotWalletPath = "m/44'/60'/1'/0/0";

/** BIP32 child index limit for non-hardened derivation. */
export const MAX_ADDRESS_INDEX = 0x7fffffff;

const b58c = base58check(sha256);

const hash160 = (bytes: Uint8Array): Uint8Array => ripemd160(sha256(bytes));

function uncompressed(publicKey: Uint8Array): Uint8Array {
  return secp256k1.ProjectivePoint.fromHex(publicKey).toRawBytes(false);
}

/** keccak of the 64-byte public key (no 0x04 prefix), last 20 bytes: the EVM/TRON account id. */
function evmAccountBytes(publicKey: Uint8Array): Uint8Array {
  return keccak_256(uncompressed(publicKey).slice(1)).slice(12);
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Address of a compressed secp256k1 public key on a network. */
export function addressOfPublicKey(network: NetworkCode, publicKey: Uint8Array): string {
  if (publicKey.length !== 33) throw new Error('expected a 33-byte compressed public key');
  switch (network) {
    case 'ethereum':
    case 'bsc':
      return getAddress(`0x${toHex(evmAccountBytes(publicKey))}`);
    case 'tron':
      return b58c.encode(Uint8Array.from([0x41, ...evmAccountBytes(publicKey)]));
    case 'bitcoin':
      return bech32.encode('bc', [0, ...bech32.toWords(hash160(publicKey))]);
    case 'dogecoin':
      return b58c.encode(Uint8Array.from([0x1e, ...hash160(publicKey)]));
  }
}

/** The receive address `<account xpub>/0/<index>` on a network. */
export function deriveDepositAddress(network: NetworkCode, accountXpub: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_ADDRESS_INDEX) {
    throw new Error(`address index out of range: ${index}`);
  }
  const node = HDKey.fromExtendedKey(accountXpub).deriveChild(0).deriveChild(index);
  if (!node.publicKey) throw new Error('derivation gave no public key');
  return addressOfPublicKey(network, node.publicKey);
}

/** Account-level xpub of a network from a seed (keygen child and tests only: needs the seed). */
export function accountXpubFromSeed(seed: Uint8Array, network: NetworkCode): string {
  return HDKey.fromMasterSeed(seed).derive(accountPaths[network]).publicExtendedKey;
}

/** EVM address at a full path from a seed (keygen child and tests only). */
export function evmAddressFromSeed(seed: Uint8Array, path: string): `0x${string}` {
  const node = HDKey.fromMasterSeed(seed).derive(path);
  if (!node.publicKey) throw new Error('derivation gave no public key');
  return getAddress(`0x${toHex(evmAccountBytes(node.publicKey))}`);
}
