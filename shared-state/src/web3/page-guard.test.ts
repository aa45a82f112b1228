import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardPageProviders } from './page-guard.ts';

function fakeProvider() {
  return { request: vi.fn(async (_args: unknown) => '0x1'), isMetaMask: true };
}
type Fake = ReturnType<typeof fakeProvider>;
const win = window as unknown as { ethereum?: unknown };

describe('the page wallet providers behind the guard (security review of issue 40, item 2)', () => {
  const first = fakeProvider();
  beforeAll(() => {
    win.ethereum = first;
    guardPageProviders(window);
    guardPageProviders(window);
  });
  afterEach(() => vi.clearAllMocks());

  it('window.ethereum is the guarded provider: a signature request never reaches the wallet', async () => {
    const injected = win.ethereum as Fake;
    expect(injected).not.toBe(first);
    expect(injected.isMetaMask).toBe(true);
    await expect(injected.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
    await expect(injected.request({ method: 'personal_sign', params: ['0x00', '0x00'] })).rejects.toThrow(/refused/);
    const tx = { to: `0x${'2'.repeat(40)}`, value: '0x1' };
    await expect(injected.request({ method: 'eth_sendTransaction', params: [tx] })).rejects.toThrow(/refused/);
    const methods = first.request.mock.calls.map(([args]) => (args as { method: string }).method);
    expect(methods).not.toContain('personal_sign');
    expect(methods).not.toContain('eth_sendTransaction');
  });

  it('a wallet that sets window.ethereum later is guarded too', async () => {
    const later = fakeProvider();
    win.ethereum = later;
    await expect((win.ethereum as Fake).request({ method: 'eth_signTypedData_v4' })).rejects.toThrow(/refused/);
    expect(later.request).not.toHaveBeenCalled();
  });

  it('wallet-named globals (window.okxwallet, safepalProvider, trustwallet) are guarded, set before or after (issue 33)', async () => {
    const named = window as unknown as Record<string, unknown>;
    for (const name of ['okxwallet', 'safepalProvider', 'trustwallet']) {
      const raw = fakeProvider();
      named[name] = raw;
      const seen = named[name] as Fake;
      expect(seen).not.toBe(raw);
      await expect(seen.request({ method: 'personal_sign', params: ['0x00', '0x00'] })).rejects.toThrow(/refused/);
      await expect(seen.request({ method: 'eth_chainId' })).resolves.toBe('0x1');
      expect(raw.request.mock.calls.map(([a]) => (a as { method: string }).method)).toEqual(['eth_chainId']);
    }
  });

  it('wallet-named objects (binancew3w.ethereum, bitkeep.ethereum) hand out only the guarded provider (issue 33)', async () => {
    const named = window as unknown as Record<string, { ethereum?: unknown }>;
    const providerOf = (name: string) => (named[name] as { ethereum: Fake }).ethereum;
    for (const name of ['binancew3w', 'bitkeep']) {
      const raw = fakeProvider();
      named[name] = { ethereum: raw };
      const seen = providerOf(name);
      expect(seen).not.toBe(raw);
      await expect(seen.request({ method: 'eth_signTypedData_v4' })).rejects.toThrow(/refused/);
      // Set on the object later (a wallet that fills it in after load): still guarded.
      const later = fakeProvider();
      (named[name] as { ethereum?: unknown }).ethereum = later;
      await expect(providerOf(name).request({ method: 'personal_sign' })).rejects.toThrow(/refused/);
      expect(raw.request).not.toHaveBeenCalled();
      expect(later.request).not.toHaveBeenCalled();
    }
  });

  it('an EIP-6963 announcement reaches listeners only with the guarded provider', async () => {
    const announced = fakeProvider();
    const seen: unknown[] = [];
    window.addEventListener('eip6963:announceProvider', (event) => {
      seen.push((event as CustomEvent<{ provider: unknown }>).detail.provider);
    });
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({ info: { rdns: 'io.example' }, provider: announced }),
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toBe(announced);
    await expect((seen[0] as Fake).request({ method: 'wallet_grantPermissions' })).rejects.toThrow(/refused/);
    expect(announced.request).not.toHaveBeenCalled();
  });
});
