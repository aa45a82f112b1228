import { sha256 } from '@noble/hashes/sha2';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { type AddressNetwork, addressNetworks, canonicalAddress, isValidAddress } from './index.ts';

const b58 = createBase58check(sha256);
const hash20 = (seed: number) => Uint8Array.from({ length: 20 }, (_, i) => (seed * 31 + i * 7) & 0xff);
const withVersion = (version: number, seed: number) => b58.encode(Uint8Array.from([version, ...hash20(seed)]));
const segwit = (version: number, program: Uint8Array) =>
  (version === 0 ? bech32 : bech32m).encode('bc', [version, ...bech32.toWords(program)]);

/** Published examples (BIP-173, BIP-350, EIP-55, well-known mainnet addresses) plus generated ones. */
const valid: Record<AddressNetwork, string[]> = {
  bitcoin: [
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3',
    'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    withVersion(0x00, 1),
    withVersion(0x05, 2),
    segwit(0, hash20(3)),
    segwit(1, new Uint8Array(32).fill(9)),
    segwit(2, new Uint8Array(16).fill(5)),
  ],
  ethereum: [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  ],
  bsc: ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359'],
  tron: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', withVersion(0x41, 4), withVersion(0x41, 5)],
  dogecoin: [withVersion(0x1e, 6), withVersion(0x1e, 7), withVersion(0x16, 8), withVersion(0x16, 200)],
};

const flipLast = (s: string) => s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a');

const invalid: Record<AddressNetwork, string[]> = {
  bitcoin: [
    '',
    ' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', // checksum
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', // checksum
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7KV8f3t4', // mixed case
    'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', // testnet
    bech32m.encode('bc', [0, ...bech32.toWords(hash20(1))]), // v0 with a bech32m checksum
    bech32.encode('bc', [1, ...bech32.toWords(new Uint8Array(32))]), // v1 with a bech32 checksum
    segwit(0, new Uint8Array(21)), // v0 program of a wrong length
    segwit(1, new Uint8Array(20)), // taproot program of a wrong length
    withVersion(0x6f, 1), // testnet P2PKH
    withVersion(0x1e, 1), // dogecoin
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    'x'.repeat(500),
  ],
  ethereum: [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', // EIP-55 checksum broken by one letter's case
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', // 39 digits
    '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', // no 0x
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd',
    '0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    '',
  ],
  bsc: ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5D359', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  tron: [
    flipLast('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
    withVersion(0x00, 4), // bitcoin P2PKH
    withVersion(0x1e, 4),
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    'T',
  ],
  dogecoin: [
    withVersion(0x00, 6), // bitcoin
    withVersion(0x05, 6),
    withVersion(0x41, 6), // tron
    withVersion(0x71, 6), // dogecoin testnet
    flipLast(withVersion(0x1e, 6)),
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ],
};

describe('isValidAddress', () => {
  for (const network of addressNetworks) {
    it.each(valid[network])(`${network}: accepts %s`, (address) => {
      expect(isValidAddress(network, address)).toBe(true);
    });
    it.each(invalid[network])(`${network}: refuses %s`, (address) => {
      expect(isValidAddress(network, address)).toBe(false);
    });
  }

  it('refuses every valid address on every other network (except EVM on EVM)', () => {
    const evm = new Set(['ethereum', 'bsc']);
    for (const network of addressNetworks) {
      for (const other of addressNetworks) {
        if (other === network || (evm.has(other) && evm.has(network))) continue;
        for (const address of valid[other])
          expect(isValidAddress(network, address), `${address} on ${network}`).toBe(false);
      }
    }
  });

  it('refuses addresses that burn what is sent: the zero address, the EVM precompiles, TRON zero', () => {
    const evmBurns = ['0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000001'];
    evmBurns.push('0x000000000000000000000000000000000000000a', '0x000000000000000000000000000000000000000A');
    for (const network of ['ethereum', 'bsc'])
      for (const address of evmBurns) expect(isValidAddress(network, address), `${address} on ${network}`).toBe(false);
    // The first address above the precompiles is an ordinary (if unlikely) one.
    expect(isValidAddress('ethereum', '0x000000000000000000000000000000000000000b')).toBe(true);
    expect(isValidAddress('tron', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBe(false);
  });

  it('refuses unknown networks', () => {
    expect(isValidAddress('solana', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('canonicalAddress', () => {
  it('checksums EVM addresses and lower-cases bech32', () => {
    expect(canonicalAddress('ethereum', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    expect(canonicalAddress('bitcoin', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(canonicalAddress('tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  it('throws on an invalid address', () => {
    expect(() => canonicalAddress('tron', 'T123')).toThrow();
  });
});
