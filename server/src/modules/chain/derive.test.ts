import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { networkCodes } from '../catalogue/catalogue.ts';
import { accountXpubFromSeed, deriveDepositAddress, evmAddressFromSeed } from './derive.ts';

// The standard BIP39 test mnemonic (public test vector; never holds funds).
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);

describe('deposit address derivation from xpubs', () => {
  it('bitcoin: BIP84 test vector m/84h/0h/0h/0/0 and /0/1', () => {
    const xpub = accountXpubFromSeed(seed, 'bitcoin');
    expect(deriveDepositAddress('bitcoin', xpub, 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveDepositAddress('bitcoin', xpub, 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it('ethereum: m/44h/60h/0h/0/0 is the well-known 0x9858... address, EIP-55 checksummed', () => {
    const xpub = accountXpubFromSeed(seed, 'ethereum');
    expect(deriveDepositAddress('ethereum', xpub, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it('tron: m/44h/195h/0h/0/0 test vector (base58check of 0x41 + keccak address)', () => {
    const xpub = accountXpubFromSeed(seed, 'tron');
    expect(deriveDepositAddress('tron', xpub, 0)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('dogecoin: P2PKH version 0x1e gives D... addresses', () => {
    const xpub = accountXpubFromSeed(seed, 'dogecoin');
    const address = deriveDepositAddress('dogecoin', xpub, 0);
    expect(address).toMatch(/^D[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(address).toBe('DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC');
  });

  it('bsc uses its own tree: no address is shared with ethereum for the same index', () => {
    const eth = accountXpubFromSeed(seed, 'ethereum');
    const bsc = accountXpubFromSeed(seed, 'bsc');
    for (let i = 0; i < 5; i++) {
      expect(deriveDepositAddress('bsc', bsc, i)).not.toBe(deriveDepositAddress('ethereum', eth, i));
    }
  });

  it('every network derives distinct addresses per index from the public key alone', () => {
    for (const network of networkCodes) {
      const xpub = accountXpubFromSeed(seed, network);
      expect(xpub.startsWith('xpub')).toBe(true);
      const addresses = new Set([0, 1, 2, 3].map((i) => deriveDepositAddress(network, xpub, i)));
      expect(addresses.size).toBe(4);
    }
  });

  it('refuses an index outside the non-hardened range', () => {
    const xpub = accountXpubFromSeed(seed, 'ethereum');
    expect(() => deriveDepositAddress('ethereum', xpub, -1)).toThrow();
    expect(() => deriveDepositAddress('ethereum', xpub, 2 ** 31)).toThrow();
  });

  it('hot wallet path gives an EVM address', () => {
    expect(evmAddressFromSeed(seed, "m/44'/60'/1'/0/0")).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});
