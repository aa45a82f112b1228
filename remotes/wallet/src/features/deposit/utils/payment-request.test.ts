import { parse } from 'eth-url-parser';
import { describe, expect, it } from 'vitest';
import { paymentRequestUri } from './payment-request.ts';

const DEPOSIT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const USDT = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';

/** The parser's number (bignumber.js writes 1e21 and above as "1.000…7e+30", still exact) as a bigint. */
function exact(text: string | undefined): bigint {
  const [mantissa = '0', exponent = '0'] = (text ?? '0').split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const shift = Number(exponent) - fraction.length;
  expect(shift).toBeGreaterThanOrEqual(0);
  return BigInt(whole + fraction) * 10n ** BigInt(shift);
}

/** Read back by eth-url-parser, a standard EIP-681 parser (viem 2.57 has none). */
describe('EIP-681 deposit payment requests (issue 33)', () => {
  it('a token transfer: the token contract, chain, transfer(address, uint256) to my deposit address', () => {
    const uri = paymentRequestUri({ chainId: 31337, depositAddress: DEPOSIT, token: USDT, amount: 20_000_000n });
    expect(uri).toBe(`ethereum:${USDT}@31337/transfer?address=${DEPOSIT}&uint256=20000000`);
    const parsed = parse(uri);
    expect(parsed.scheme).toBe('ethereum');
    expect(parsed.target_address).toBe(USDT);
    expect(parsed.chain_id).toBe('31337');
    expect(parsed.function_name).toBe('transfer');
    expect(parsed.parameters?.address).toBe(DEPOSIT);
    expect(exact(parsed.parameters?.uint256)).toBe(20_000_000n);
  });

  it('the native coin: value in wei to my deposit address, exact for 18 decimals', () => {
    const wei = 123_456_789_012_345_678n;
    const uri = paymentRequestUri({ chainId: 1, depositAddress: DEPOSIT, token: null, amount: wei });
    expect(uri).toBe(`ethereum:${DEPOSIT}@1?value=123456789012345678`);
    const parsed = parse(uri);
    expect(parsed.target_address).toBe(DEPOSIT);
    expect(parsed.chain_id).toBe('1');
    expect(parsed.function_name).toBeUndefined();
    expect(exact(parsed.parameters?.value)).toBe(wei);
  });

  it('a large amount stays exact (no float, no exponent)', () => {
    const amount = 10n ** 30n + 7n;
    const uri = paymentRequestUri({ chainId: 56, depositAddress: DEPOSIT, token: USDT, amount });
    expect(uri).toContain('uint256=1000000000000000000000000000007');
    expect(exact(parse(uri).parameters?.uint256)).toBe(amount);
  });

  it('refuses what would send coins somewhere else or nothing', () => {
    const ok = { chainId: 1, depositAddress: DEPOSIT, token: null, amount: 1n } as const;
    expect(() => paymentRequestUri({ ...ok, amount: 0n })).toThrow();
    expect(() => paymentRequestUri({ ...ok, amount: -1n })).toThrow();
    expect(() => paymentRequestUri({ ...ok, chainId: 0 })).toThrow();
    expect(() => paymentRequestUri({ ...ok, depositAddress: '0x1234' })).toThrow();
    expect(() => paymentRequestUri({ ...ok, token: '0xnot-a-contract' as `0x${string}` })).toThrow();
  });
});
