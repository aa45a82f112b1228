import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { assertAllowed, checkInAbi, tokenTransferAbi } from './safety.ts';

const deposit = '0x1111111111111111111111111111111111111111' as const;
const token = '0x2222222222222222222222222222222222222222' as const;
const contract = '0x3333333333333333333333333333333333333333' as const;
const tag = `0x${'ab'.repeat(32)}` as const;

describe('wallet request guard', () => {
  it('lets through exactly the three allowed transactions', () => {
    expect(() =>
      assertAllowed(
        { kind: 'native-deposit', depositAddress: deposit, amount: 5n },
        { to: deposit, value: 5n, data: undefined },
      ),
    ).not.toThrow();
    const transfer = encodeFunctionData({ abi: tokenTransferAbi, functionName: 'transfer', args: [deposit, 7n] });
    expect(() =>
      assertAllowed(
        { kind: 'token-deposit', token, depositAddress: deposit, amount: 7n },
        { to: token, value: 0n, data: transfer },
      ),
    ).not.toThrow();
    const checkIn = encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [tag] });
    expect(() =>
      assertAllowed({ kind: 'check-in', contract, memberTag: tag }, { to: contract, value: 0n, data: checkIn }),
    ).not.toThrow();
  });

  it('refuses anything else: another recipient, amount, contract, value, or an approval', () => {
    const intent = { kind: 'token-deposit', token, depositAddress: deposit, amount: 7n } as const;
    const other = '0x4444444444444444444444444444444444444444' as const;
    const to = (address: `0x${string}`, amount: bigint) =>
      encodeFunctionData({ abi: tokenTransferAbi, functionName: 'transfer', args: [address, amount] });
    expect(() => assertAllowed(intent, { to: token, value: 0n, data: to(other, 7n) })).toThrow(/deposit address/);
    expect(() => assertAllowed(intent, { to: token, value: 0n, data: to(deposit, 8n) })).toThrow(/typed amount/);
    expect(() => assertAllowed(intent, { to: other, value: 0n, data: to(deposit, 7n) })).toThrow(/another token/);
    expect(() => assertAllowed(intent, { to: token, value: 1n, data: to(deposit, 7n) })).toThrow(/value/);
    const approve = encodeFunctionData({
      abi: parseAbi(['function approve(address spender, uint256 amount) returns (bool)']),
      functionName: 'approve',
      args: [deposit, 7n],
    });
    expect(() => assertAllowed(intent, { to: token, value: 0n, data: approve })).toThrow();
    expect(() =>
      assertAllowed(
        { kind: 'native-deposit', depositAddress: deposit, amount: 5n },
        { to: other, value: 5n, data: undefined },
      ),
    ).toThrow();
    expect(() =>
      assertAllowed({ kind: 'check-in', contract, memberTag: tag }, { to: contract, value: 1n, data: '0x' }),
    ).toThrow();
  });
});
