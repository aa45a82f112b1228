import { encodeFunctionData, erc20Abi, type Hex, numberToHex } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import { guardConnector, guardProvider } from './guard.ts';
import { expectTransaction } from './guard-transaction.ts';
import { type ChainAllowlist, checkInAbi, depositIntent } from './safety.ts';

function fakeProvider() {
  return { request: vi.fn(async (_args: unknown) => '0x1'), send: vi.fn(), on: vi.fn(), isMetaMask: true };
}

const USDT: Hex = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const CHECK_IN: Hex = '0x1111111111111111111111111111111111111111';
const DEPOSIT: Hex = '0x2222222222222222222222222222222222222222';
const ATTACKER: Hex = '0x3333333333333333333333333333333333333333';
const USER: Hex = '0x4444444444444444444444444444444444444444';
const CHAIN: ChainAllowlist = { nativeSymbol: 'ETH', tokens: { USDT }, checkInContract: CHECK_IN };
const TAG: Hex = `0x${'ab'.repeat(32)}`;

const transferData = (to: Hex, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });

/** The guard with the kit's deposit of 5 USDT (5_000_000) expected; the wallet is on chain 1. */
function armedUsdtDeposit() {
  const inner = fakeProvider();
  const provider = guardProvider(inner);
  const intent = depositIntent(CHAIN, { coin: 'USDT', depositAddress: DEPOSIT, amount: 5_000_000n });
  const done = expectTransaction({ intent, chainId: 1, chain: CHAIN, from: USER });
  const sends = () =>
    inner.request.mock.calls.filter(([a]) => (a as { method: string }).method === 'eth_sendTransaction');
  return { inner, provider, done, sends };
}

describe('wallet provider guard (issue 40 item 6)', () => {
  it('passes the allowed methods through', async () => {
    const inner = fakeProvider();
    const provider = guardProvider(inner);
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
    await expect(
      provider.request({ method: 'wallet_requestPermissions', params: [{ eth_accounts: {} }] }),
    ).resolves.toBe('0x1');
    expect(inner.request).toHaveBeenCalledTimes(2);
    expect(provider.isMetaMask).toBe(true);
    provider.on('chainChanged', () => {});
    expect(inner.on).toHaveBeenCalledOnce();
  });

  it.each([
    'eth_sign',
    'personal_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
    'wallet_sendCalls',
    'wallet_grantPermissions',
    'wallet_addEthereumChain',
    'wallet_watchAsset',
  ])('refuses %s before it reaches the wallet, even with a name built at run time', async (method) => {
    const inner = fakeProvider();
    const provider = guardProvider(inner);
    const built = method.split('').join('');
    await expect(provider.request({ method: built })).rejects.toThrow(/refused/);
    expect(inner.request).not.toHaveBeenCalled();
  });

  it('refuses the legacy send entry point', async () => {
    const inner = fakeProvider();
    await expect((guardProvider(inner).send as () => Promise<unknown>)()).rejects.toThrow(/legacy/);
    expect(inner.send).not.toHaveBeenCalled();
  });

  it("wraps a connector's providers, once", async () => {
    const inner = fakeProvider();
    const connector = { getProvider: async () => inner };
    guardConnector(connector);
    guardConnector(connector);
    const provider = (await connector.getProvider()) as ReturnType<typeof fakeProvider>;
    await expect(provider.request({ method: 'personal_sign' })).rejects.toThrow(/refused/);
    expect(inner.request).not.toHaveBeenCalled();
    expect(await connector.getProvider()).toBe(provider);
  });

  it('refuses an eth_sendTransaction the kit is not sending, whatever its parameters', async () => {
    const inner = fakeProvider();
    const provider = guardProvider(inner);
    await expect(provider.request({ method: 'eth_sendTransaction', params: [{}] })).rejects.toThrow(/refused/);
    const plain = { from: USER, to: DEPOSIT, value: numberToHex(1n) };
    await expect(provider.request({ method: 'eth_sendTransaction', params: [plain] })).rejects.toThrow(/refused/);
    expect(inner.request).not.toHaveBeenCalledWith(expect.objectContaining({ method: 'eth_sendTransaction' }));
  });

  it('lets the expected deposit through once, exactly as expected', async () => {
    const { provider, done, sends } = armedUsdtDeposit();
    const tx = { from: USER, to: USDT, data: transferData(DEPOSIT, 5_000_000n), gas: '0x5208' };
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).resolves.toBe('0x1');
    // The same request again (a replay) has nothing left to match.
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toThrow(/refused/);
    expect(sends()).toHaveLength(1);
    done();
  });

  it.each([
    [
      'approve calldata on the token',
      { to: USDT, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [ATTACKER, 2n ** 255n] }) },
    ],
    ['a transfer to another address', { to: USDT, data: transferData(ATTACKER, 5_000_000n) }],
    ['another amount', { to: USDT, data: transferData(DEPOSIT, 50_000_000n) }],
    ['value on the token call', { to: USDT, value: '0x1', data: transferData(DEPOSIT, 5_000_000n) }],
    ['native value instead of the token', { to: DEPOSIT, value: numberToHex(5_000_000n) }],
    [
      'the check-in call',
      { to: CHECK_IN, data: encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [TAG] }) },
    ],
    ['another chain', { to: USDT, chainId: '0x38', data: transferData(DEPOSIT, 5_000_000n) }],
    ['another sender', { from: ATTACKER, to: USDT, data: transferData(DEPOSIT, 5_000_000n) }],
    [
      'an EIP-7702 authorization',
      { to: USDT, data: transferData(DEPOSIT, 5_000_000n), authorizationList: [{ address: ATTACKER }] },
    ],
    ['a type-4 transaction', { to: USDT, data: transferData(DEPOSIT, 5_000_000n), type: '0x4' }],
    ['input differing from data', { to: USDT, data: transferData(DEPOSIT, 5_000_000n), input: '0x095ea7b3' }],
  ])('refuses %s while a deposit is expected, before the wallet sees it', async (_name, tx) => {
    const { provider, done, sends } = armedUsdtDeposit();
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toThrow(/refused/);
    expect(sends()).toHaveLength(0);
    done();
  });

  it('refuses the expected deposit after the kit is done with it, or with the wallet on another chain', async () => {
    const { inner, provider, done, sends } = armedUsdtDeposit();
    const tx = { to: USDT, data: transferData(DEPOSIT, 5_000_000n) };
    inner.request.mockImplementation(async (args: unknown) =>
      (args as { method: string }).method === 'eth_chainId' ? '0x38' : '0x1',
    );
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toThrow(/another chain/);
    done();
    inner.request.mockImplementation(async () => '0x1');
    await expect(provider.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toThrow(/refused/);
    expect(sends()).toHaveLength(0);
  });

  it('lets the expected check-in through only on the catalogue check-in contract', async () => {
    const inner = fakeProvider();
    const provider = guardProvider(inner);
    const data = encodeFunctionData({ abi: checkInAbi, functionName: 'checkIn', args: [TAG] });
    expect(() =>
      expectTransaction({
        intent: { kind: 'check-in', contract: ATTACKER, memberTag: TAG },
        chainId: 1,
        chain: CHAIN,
        from: USER,
      }),
    ).not.toThrow();
    await expect(provider.request({ method: 'eth_sendTransaction', params: [{ to: ATTACKER, data }] })).rejects.toThrow(
      /catalogue/,
    );
    const done = expectTransaction({
      intent: { kind: 'check-in', contract: CHECK_IN, memberTag: TAG },
      chainId: 1,
      chain: CHAIN,
      from: USER,
    });
    await expect(provider.request({ method: 'eth_sendTransaction', params: [{ to: CHECK_IN, data }] })).resolves.toBe(
      '0x1',
    );
    done();
  });

  it('checks a copy of the parameters: changing them while the check waits changes nothing sent', async () => {
    const { inner, provider, done } = armedUsdtDeposit();
    const tx: Record<string, unknown> = { to: USDT, data: transferData(DEPOSIT, 5_000_000n) };
    const pending = provider.request({ method: 'eth_sendTransaction', params: [tx] });
    tx.data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [ATTACKER, 1n] });
    await pending;
    const sent = inner.request.mock.calls.at(-1)?.[0] as { params: [{ data: Hex }] };
    expect(sent.params[0].data).toBe(transferData(DEPOSIT, 5_000_000n));
    done();
  });

  it.each([
    [[{ eth_accounts: {}, eth_sendTransaction: {} }]],
    [[{ eth_accounts: { requiredMethods: ['eth_sign'] } }]],
    [[{ eth_accounts: {} }, { wallet_sendCalls: {} }]],
    [[{ 'endowment:permitted-chains': {} }]],
    [[]],
    [undefined],
  ])('refuses wallet_requestPermissions for anything but the accounts: %j', async (params) => {
    const inner = fakeProvider();
    await expect(guardProvider(inner).request({ method: 'wallet_requestPermissions', params })).rejects.toThrow(
      /permission/,
    );
    expect(inner.request).not.toHaveBeenCalled();
  });

  it('guarding a guard returns it (one check, one use of the expected send)', () => {
    const provider = guardProvider(fakeProvider());
    expect(guardProvider(provider)).toBe(provider);
  });
});
