import { describe, expect, it } from 'vitest';
import { addressFromScan } from './address-field.tsx';
import { networkPaymentContext, readPaymentFor, readPaymentUri } from './payment-uri.ts';

const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const R = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('readPaymentUri (issue 40 item 3)', () => {
  it('an ERC-20 transfer request: the recipient is the address parameter, not the token contract', () => {
    expect(readPaymentUri(`ethereum:${USDT}@1/transfer?address=${R}&uint256=1.5e6`, 1)).toEqual({
      ok: true,
      request: { kind: 'token', address: R, token: USDT, chainId: 1, amountUnits: 1_500_000n },
    });
  });

  it('the scan fills in the recipient, not the token contract (the probe: it filled in 0xdAC17…)', () => {
    expect(addressFromScan(`ethereum:${USDT}@1/transfer?address=${R}&uint256=1`)).toBe(R);
  });

  it('a native request keeps its address and value in wei', () => {
    expect(readPaymentUri(`ethereum:${R}@56?value=2.014e18`, 56)).toEqual({
      ok: true,
      request: { kind: 'native', address: R, chainId: 56, amountWei: 2_014_000_000_000_000_000n },
    });
    expect(readPaymentUri(`ethereum:pay-${R}`, 1)).toMatchObject({ ok: true, request: { chainId: null } });
  });

  it('refuses a chain id that is not the selected network', () => {
    expect(readPaymentUri(`ethereum:${USDT}@56/transfer?address=${R}&uint256=1`, 1)).toEqual({
      ok: false,
      problem: 'chain',
    });
  });

  it('refuses any other function call (approve, transferFrom, a permit)', () => {
    for (const fn of ['approve', 'transferFrom', 'permit', 'safeTransferFrom'])
      expect(readPaymentUri(`ethereum:${USDT}@1/${fn}?address=${R}&uint256=1`, 1)).toEqual({
        ok: false,
        problem: 'function',
      });
  });

  it('refuses what it cannot read exactly', () => {
    for (const uri of [
      'ethereum:vitalik.eth',
      `ethereum:${USDT}/transfer?uint256=1`,
      `ethereum:${USDT}/transfer?address=nope&uint256=1`,
      `ethereum:${USDT}/transfer?address=${R}&uint256=1.5`,
      `ethereum:${USDT}/transfer?address=${R}&uint256=1&value=5`,
      `ethereum:${R}?value=-1`,
      `ethereum:${R}?value=1e99`,
      'bitcoin:',
    ])
      expect(readPaymentUri(uri, 1)).toEqual({ ok: false, problem: 'malformed' });
  });

  it('plain addresses and other schemes give the address', () => {
    expect(readPaymentUri(` ${R}\n`, 1)).toEqual({ ok: true, request: { kind: 'address', address: R } });
    expect(readPaymentUri('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.1', null)).toEqual({
      ok: true,
      request: { kind: 'address', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
    });
  });
});

describe('readPaymentFor: against the selected network and coin', () => {
  const transfer = `ethereum:${USDT}@1/transfer?address=${R}&uint256=1`;

  it('accepts the selected coin on the selected chain', () => {
    expect(readPaymentFor(transfer, { chainId: 1, token: USDT.toLowerCase() })).toMatchObject({ ok: true });
    expect(readPaymentFor(`ethereum:${R}@1?value=1`, { chainId: 1, token: null })).toMatchObject({ ok: true });
  });

  it('refuses another token, a native request while a token is selected, or an EVM request on TRON', () => {
    const other = '0x1111111111111111111111111111111111111111';
    expect(readPaymentFor(transfer, { chainId: 1, token: other })).toEqual({ ok: false, problem: 'asset' });
    expect(readPaymentFor(transfer, { chainId: 1, token: null })).toEqual({ ok: false, problem: 'asset' });
    expect(readPaymentFor(`ethereum:${R}?value=1`, { chainId: 1, token: USDT })).toEqual({
      ok: false,
      problem: 'asset',
    });
    expect(readPaymentFor(transfer, { chainId: null, token: null })).toEqual({ ok: false, problem: 'chain' });
    expect(readPaymentFor('TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', { chainId: null, token: null })).toMatchObject({
      ok: true,
    });
  });
});

describe('networkPaymentContext: an address-book entry or an internal transfer (security review item 3)', () => {
  const transfer56 = `ethereum:${USDT}@56/transfer?address=${R}&uint256=1`;

  it('refuses a request for chain 56 while Ethereum is selected; any asset on the chain is read', () => {
    expect(readPaymentFor(transfer56, networkPaymentContext(1))).toEqual({ ok: false, problem: 'chain' });
    expect(readPaymentFor(`ethereum:${R}@56`, networkPaymentContext(1))).toEqual({ ok: false, problem: 'chain' });
    expect(readPaymentFor(transfer56, networkPaymentContext(56))).toMatchObject({ ok: true, request: { address: R } });
    expect(readPaymentFor(`ethereum:${R}@1?value=1`, networkPaymentContext(1))).toMatchObject({ ok: true });
  });

  it('without a chain id (TRON, or a transfer that names no chain) refuses every EVM request, reads a plain address', () => {
    expect(readPaymentFor(transfer56, networkPaymentContext(null))).toEqual({ ok: false, problem: 'chain' });
    expect(readPaymentFor(`ethereum:${R}`, networkPaymentContext(null))).toEqual({ ok: false, problem: 'chain' });
    expect(readPaymentFor(R, networkPaymentContext(null))).toEqual({
      ok: true,
      request: { kind: 'address', address: R },
    });
  });

  it('the function and malformed checks still apply', () => {
    const approve = `ethereum:${USDT}@1/approve?address=${R}&uint256=1`;
    expect(readPaymentFor(approve, networkPaymentContext(1))).toEqual({ ok: false, problem: 'function' });
  });
});
