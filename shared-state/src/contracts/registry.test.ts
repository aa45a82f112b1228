import { describe, expect, it } from 'vitest';
import { isRegistry } from './index.ts';

const entry = (manifest: string) => ({
  remotes: { wallet: { version: '0.1.0-3e0fe8cd3a', manifest, routes: ['/coinTopup'] } },
});

describe('isRegistry: where a remote may be loaded from (issue 40 item 7)', () => {
  it("accepts the version's own folder on this origin", () => {
    expect(isRegistry(entry('/remotes/wallet/0.1.0-3e0fe8cd3a/mf-manifest.json'))).toBe(true);
  });

  it.each([
    'https://evil.example/mf-manifest.json',
    '//evil.example/remotes/wallet/0.1.0-3e0fe8cd3a/mf-manifest.json',
    '/remotes/wallet/0.1.0-other/mf-manifest.json',
    '/remotes/convert/0.1.0-3e0fe8cd3a/mf-manifest.json',
    '/remotes/wallet/0.1.0-3e0fe8cd3a/../../../evil/mf-manifest.json',
    'data:application/json,{}',
  ])('refuses a registry naming %s', (manifest) => {
    expect(isRegistry(entry(manifest))).toBe(false);
  });

  it('refuses a version that would leave its folder', () => {
    const registry = {
      remotes: { wallet: { version: '../x', manifest: '/remotes/wallet/../x/mf-manifest.json', routes: [] } },
    };
    expect(isRegistry(registry)).toBe(false);
  });
});

describe('isRegistry: digests of a version (issue 35 item 1)', () => {
  const version = '0.1.0-3e0fe8cd3a';
  const sealed = (fields: Record<string, string | undefined>) => ({
    remotes: {
      wallet: { version, manifest: `/remotes/wallet/${version}/mf-manifest.json`, routes: ['/coinTopup'], ...fields },
    },
  });
  const sri = `sha384-${'a'.repeat(64)}`;

  it('accepts an entry in its own folder with both sha384 digests', () => {
    expect(
      isRegistry(
        sealed({ entry: `/remotes/wallet/${version}/remoteEntry.js`, integrity: sri, manifestIntegrity: sri }),
      ),
    ).toBe(true);
  });

  it.each([
    { entry: `/remotes/wallet/${version}/remoteEntry.js`, integrity: sri },
    { entry: `/remotes/wallet/${version}/remoteEntry.js`, integrity: 'sha256-abc', manifestIntegrity: sri },
    { entry: 'https://evil.example/remoteEntry.js', integrity: sri, manifestIntegrity: sri },
    { entry: `/remotes/wallet/${version}/../x/remoteEntry.js`, integrity: sri, manifestIntegrity: sri },
  ])('refuses a half-sealed or misplaced entry %#', (fields) => {
    expect(isRegistry(sealed(fields))).toBe(false);
  });
});

describe('isRegistry: a version on a team CDN (issue 35 item 2)', () => {
  const version = '0.1.0-cdn1';
  const cdn = 'http://127.0.0.2:5407';
  const sri = `sha384-${'b'.repeat(64)}`;
  const onCdn = (fields: Record<string, string>) => ({
    remotes: {
      wallet: { version, manifest: `${cdn}/wallet/${version}/mf-manifest.json`, routes: ['/coinTopup'], ...fields },
    },
  });

  it('is accepted sealed, with its entry in the same folder', () => {
    const entry = `${cdn}/wallet/${version}/remoteEntry.js`;
    expect(isRegistry(onCdn({ entry, integrity: sri, manifestIntegrity: sri }))).toBe(true);
  });

  it('is refused without its digests (fail closed) or with its entry elsewhere', () => {
    expect(isRegistry(onCdn({}))).toBe(false);
    const elsewhere = `https://evil.example/wallet/${version}/remoteEntry.js`;
    expect(isRegistry(onCdn({ entry: elsewhere, integrity: sri, manifestIntegrity: sri }))).toBe(false);
  });
});
