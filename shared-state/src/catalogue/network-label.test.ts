import { describe, expect, it } from 'vitest';
import { networkLabel } from './network-label.ts';

const ethereum = { code: 'ethereum', tokenStandard: 'ERC-20', nativeCoin: 'ETH' };
const bsc = { code: 'bsc', tokenStandard: 'BEP-20', nativeCoin: 'BNB' };
const bitcoin = { code: 'bitcoin', tokenStandard: null, nativeCoin: 'BTC' };

describe('networkLabel', () => {
  it('labels a native coin by its network only', () => {
    expect(networkLabel(ethereum, 'ethereum', 'ETH')).toBe('Ethereum');
    expect(networkLabel(bsc, 'bsc', 'BNB')).toBe('BNB Smart Chain');
    expect(networkLabel(bitcoin, 'bitcoin', 'BTC')).toBe('Bitcoin');
  });

  it('adds the token standard for a token', () => {
    expect(networkLabel(ethereum, 'ethereum', 'USDT')).toBe('Ethereum (ERC-20)');
    expect(networkLabel(bsc, 'bsc', 'USDC')).toBe('BNB Smart Chain (BEP-20)');
  });

  it('without a coin or a known network: the name alone', () => {
    expect(networkLabel(ethereum, 'ethereum')).toBe('Ethereum');
    expect(networkLabel(undefined, 'solana', 'SOL')).toBe('solana');
  });
});
