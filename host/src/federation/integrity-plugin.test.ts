import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectIntegrity, integrityPlugin } from './integrity-plugin.ts';

const SRI_ENTRY = `sha384-${'A'.repeat(64)}`;
const SRI_MANIFEST = `sha384-${'B'.repeat(64)}`;
const folder = '/remotes/wallet/0.1.0-x/';

describe('the host checks remote integrity (issue 35 item 1)', () => {
  afterEach(() => vi.unstubAllGlobals());
  expectIntegrity({
    version: '0.1.0-x',
    manifest: `${folder}mf-manifest.json`,
    manifestIntegrity: SRI_MANIFEST,
    entry: `${folder}remoteEntry.js`,
    integrity: SRI_ENTRY,
    routes: ['/coinTopup'],
  });
  const plugin = integrityPlugin();

  it('the remote entry script carries integrity and crossorigin (the absolute URL the runtime asks for)', () => {
    const script = plugin.createScript?.({ url: new URL(`${folder}remoteEntry.js`, location.href).href });
    expect(script).toBeInstanceOf(HTMLScriptElement);
    const element = script as HTMLScriptElement;
    expect(element.getAttribute('integrity')).toBe(SRI_ENTRY);
    expect(element.getAttribute('crossorigin')).toBe('anonymous');
    expect(element.src).toBe(new URL(`${folder}remoteEntry.js`, location.href).href);
  });

  it('the manifest is fetched with its integrity', async () => {
    const fetchMock = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchMock);
    await plugin.fetch?.(`${folder}mf-manifest.json`, {});
    expect(fetchMock).toHaveBeenCalledWith(
      `${folder}mf-manifest.json`,
      expect.objectContaining({ integrity: SRI_MANIFEST, mode: 'cors' }),
    );
  });

  it('a script the registry gave no digest for is left to the runtime (chunks carry their own)', () => {
    expect(plugin.createScript?.({ url: `${folder}1234.js` })).toBeUndefined();
  });
});
