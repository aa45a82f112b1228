import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { assertAllowed, type ChainAllowlist, checkInAbi, depositIntent, tokenTransferAbi } from './safety.ts';

const deposit = '0x1111111111111111111111111111111111111111' as const;
const token = '0x2222222222222222222222222222222222222222' as const;
const contract = '0x3333333333333333333333333333333333333333' as const;
const tag = `0x${'ab'.repeat(32)}` as const;
const chain: ChainAllowlist = { nativeSymbol: 'ETH', tokens: { USDT: token }, checkInContract: contract };

const allowed = (intent: Parameters<typeof assertAllowed>[0], request: Parameters<typeof assertAllowed>[1]) =>
  assertAllowed(intent, request, chain);

describe('wallet request guard', () => {
  it('lets through exactly the three allowed transactions', () => {
    expect(() =>
      allowed(
        { kind: 'native-deposit', coin: 'ETH', depositAddress: deposit, amount: 5n },
        { to: deposit, value: 5n, data: undefined },
      ),
    ).not.toThrow();
    const transfer = encodeFunctionData({ abi: tokenTransferAbi, functionName: 'transfer', args: [deposit, 7n] });
    expect(() =>
      allowed(
        { kind: 'token-deposit', coin: 'USDT', token, depositAddress: deposit, amount: 7n },
        { to: token, value: 0n, data: transfer },
      ),
    ).not.toThrow();
    const checkIn = encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [tag] });
    expect(() =>
      allowed({ kind: 'check-in', contract, memberTag: tag }, { to: contract, value: 0n, data: checkIn }),
    ).not.toThrow();
  });

  it('refuses anything else: another recipient, amount, contract, value, or an approval', () => {
    const intent = { kind: 'token-deposit', coin: 'USDT', token, depositAddress: deposit, amount: 7n } as const;
    const other = '0x4444444444444444444444444444444444444444' as const;
    const to = (address: `0x${string}`, amount: bigint) =>
      encodeFunctionData({ abi: tokenTransferAbi, functionName: 'transfer', args: [address, amount] });
    expect(() => allowed(intent, { to: token, value: 0n, data: to(other, 7n) })).toThrow(/deposit address/);
    expect(() => allowed(intent, { to: token, value: 0n, data: to(deposit, 8n) })).toThrow(/typed amount/);
    expect(() => allowed(intent, { to: other, value: 0n, data: to(deposit, 7n) })).toThrow(/another token/);
    expect(() => allowed(intent, { to: token, value: 1n, data: to(deposit, 7n) })).toThrow(/value/);
    const approve = encodeFunctionData({
      abi: parseAbi(['function approve(address spender, uint256 amount) returns (bool)']),
      functionName: 'approve',
      args: [deposit, 7n],
    });
    expect(() => allowed(intent, { to: token, value: 0n, data: approve })).toThrow();
    expect(() =>
      allowed(
        { kind: 'native-deposit', coin: 'ETH', depositAddress: deposit, amount: 5n },
        { to: other, value: 5n, data: undefined },
      ),
    ).toThrow();
    expect(() =>
      allowed({ kind: 'check-in', contract, memberTag: tag }, { to: contract, value: 1n, data: '0x' }),
    ).toThrow();
  });
});

describe('intents against the catalogue (issue 40 items 2 and 5)', () => {
  const transfer = encodeFunctionData({ abi: tokenTransferAbi, functionName: 'transfer', args: [deposit, 7n] });

  it('depositIntent: native only for the native coin, the configured contract for a token, else refused', () => {
    const input = { depositAddress: deposit, amount: 5n };
    expect(depositIntent(chain, { ...input, coin: 'ETH' })).toMatchObject({ kind: 'native-deposit', coin: 'ETH' });
    expect(depositIntent(chain, { ...input, coin: 'USDT' })).toMatchObject({ kind: 'token-deposit', token });
    expect(() => depositIntent(chain, { ...input, coin: 'TUSD' })).toThrow(/no token contract of TUSD/);
  });

  it('native value only for the native coin: a token without a contract never asks for ETH', () => {
    const asNative = { kind: 'native-deposit', coin: 'TUSD', depositAddress: deposit, amount: 5n } as const;
    expect(() => assertAllowed(asNative, { to: deposit, value: 5n, data: undefined }, chain)).toThrow(/native coin/);
  });

  it("a transfer only on the catalogue's contract of that coin", () => {
    const other = '0x4444444444444444444444444444444444444444' as const;
    const wrong = { kind: 'token-deposit', coin: 'USDT', token: other, depositAddress: deposit, amount: 7n } as const;
    expect(() => assertAllowed(wrong, { to: other, value: 0n, data: transfer }, chain)).toThrow(/catalogue/);
    const unknown = { kind: 'token-deposit', coin: 'TUSD', token, depositAddress: deposit, amount: 7n } as const;
    expect(() => assertAllowed(unknown, { to: token, value: 0n, data: transfer }, chain)).toThrow(/catalogue/);
  });

  it("check-in only on the catalogue's check-in contract of the chain", () => {
    const other = '0x4444444444444444444444444444444444444444' as const;
    const data = encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [tag] });
    const intent = { kind: 'check-in', contract: other, memberTag: tag } as const;
    expect(() => assertAllowed(intent, { to: other, value: 0n, data }, chain)).toThrow(/catalogue/);
    const none = { ...chain, checkInContract: null };
    expect(() => assertAllowed({ ...intent, contract }, { to: contract, value: 0n, data }, none)).toThrow(/catalogue/);
  });
});
