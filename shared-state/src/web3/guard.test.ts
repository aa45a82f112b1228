import { describe, expect, it, vi } from 'vitest';
import { guardConnector, guardProvider } from './guard.ts';

function fakeProvider() {
  return { request: vi.fn(async (_args: unknown) => '0x1'), send: vi.fn(), on: vi.fn(), isMetaMask: true };
}

describe('wallet provider guard (issue 40 item 6)', () => {
  it('passes the allowed methods through', async () => {
    const inner = fakeProvider();
    const provider = guardProvider(inner);
    await expect(provider.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
    await expect(provider.request({ method: 'eth_sendTransaction', params: [{}] })).resolves.toBe('0x1');
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
});
