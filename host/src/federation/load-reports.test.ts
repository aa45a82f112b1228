import type { ModuleFederation } from '@module-federation/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorCodeOf, flushLoadReports, loadReportsPlugin } from './load-reports.ts';

const origin = {} as ModuleFederation;

describe('the host reports remote loads and failures (issue 35)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports a load and a failure with its runtime code, with the registered version and nothing else', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const plugin = loadReportsPlugin((remote) => (remote === 'wallet' ? '1.1.0-b' : undefined));
    const remote = { name: 'wallet', entry: '/x', type: 'global', entryGlobalName: 'wallet', shareScope: 'default' };
    await plugin.afterLoadRemote?.({ id: 'wallet/routes', remote, origin } as never);
    const failed = new Error('[ Federation Runtime ]: Failed to load script resources. #RUNTIME-008');
    await plugin.afterLoadRemote?.({ id: 'wallet/routes', remote, error: failed, origin } as never);
    // A remote the host did not register (no version) is not reported.
    await plugin.afterLoadRemote?.({ id: 'other/routes', origin } as never);
    // Failures afterLoadRemote sees are not counted twice through errorLoadRemote.
    await plugin.errorLoadRemote?.({
      id: 'wallet/routes',
      error: failed,
      lifecycle: 'onLoad',
      from: 'runtime',
      origin,
    } as never);
    flushLoadReports();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/client-events');
    expect(init.keepalive).toBe(true);
    expect(JSON.parse(String(init.body))).toEqual({
      events: [
        { remote: 'wallet', version: '1.1.0-b', kind: 'load' },
        { remote: 'wallet', version: '1.1.0-b', kind: 'failure', code: 'RUNTIME-008' },
      ],
    });
  });

  it('names integrity and contract failures', () => {
    expect(errorCodeOf(new TypeError("Failed to find a valid digest in the 'integrity' attribute"))).toBe('INTEGRITY');
    const contract = new Error('remote wallet does not expose a valid ./routes module');
    contract.name = 'RemoteContractError';
    expect(errorCodeOf(contract)).toBe('CONTRACT');
    expect(errorCodeOf('boom')).toBe('UNKNOWN');
  });
});
