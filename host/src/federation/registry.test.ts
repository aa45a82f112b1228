import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const registry = (version: string) => ({
  remotes: { wallet: { version, manifest: `/remotes/wallet/${version}/mf-manifest.json`, routes: ['/coinTopup'] } },
});

describe('the host re-reads the registry (issue 40 item 8)', () => {
  const fetchMock = vi.fn<(url: string) => Promise<Response>>();
  beforeEach(() => {
    vi.resetModules();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());
  const answer = (version: string) =>
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify(registry(version)), { status: 200 }));

  it('once per page load while nothing fails', async () => {
    const { loadRegistry, forgetRegistryFailure } = await import('./registry.ts');
    answer('1');
    await loadRegistry();
    forgetRegistryFailure();
    await loadRegistry();
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('after a remote failed to load, the retry reads the version live now', async () => {
    const { loadRegistry, forgetRegistryFailure, markRegistryStale } = await import('./registry.ts');
    answer('1');
    expect((await loadRegistry()).remotes.wallet?.version).toBe('1');
    markRegistryStale(); // e.g. version 1 was rolled back and its chunks answer 404
    forgetRegistryFailure();
    answer('2');
    expect((await loadRegistry()).remotes.wallet?.version).toBe('2');
  });

  it('an old registry is read again on the next retry', async () => {
    const { loadRegistry, forgetRegistryFailure, REGISTRY_MAX_AGE_MS } = await import('./registry.ts');
    answer('1');
    await loadRegistry();
    forgetRegistryFailure(Date.now() + REGISTRY_MAX_AGE_MS + 1);
    answer('2');
    expect((await loadRegistry()).remotes.wallet?.version).toBe('2');
  });
});
