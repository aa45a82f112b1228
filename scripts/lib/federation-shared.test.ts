import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hostSharedConfig,
  lockedVersions,
  remoteSharedConfig,
  SINGLETON_PACKAGES,
  shareConfigOf,
} from '../../federation-shared.ts';
import { createConfig } from '../../rspack.base.ts';
import { ROOT } from './paths.ts';

/** What a plugin instance was built with (the federation plugin keeps its options in `_options`). */
function pluginNamed(config: ReturnType<typeof createConfig>, name: string) {
  return (config.plugins ?? []).find((p) => p?.constructor?.name === name) as unknown as Record<string, unknown>;
}

describe('the one shared policy (federation-shared.ts, issue 35)', () => {
  it('takes every singleton version from the lockfile, strict, ^major.minor.0', async () => {
    const lock = JSON.parse(
      await import('node:fs/promises').then((fs) => fs.readFile(path.join(ROOT, 'package-lock.json'), 'utf8')),
    ) as { packages: Record<string, { version: string }> };
    const versions = lockedVersions();
    expect(Object.keys(versions).sort()).toEqual([...SINGLETON_PACKAGES].sort());
    expect(versions.react).toBe(lock.packages['node_modules/react']?.version);
    expect(versions['@cw/shared-state']).toBe(lock.packages['shared-state']?.version);
    expect(shareConfigOf('7.18.5')).toEqual({ singleton: true, strictVersion: true, requiredVersion: '^7.18.0' });
    expect(() => shareConfigOf('latest')).toThrow(/not a semver version/);
  });

  it('names a shared package the lockfile lacks', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lock-'));
    try {
      await writeFile(path.join(dir, 'lock.json'), JSON.stringify({ packages: {} }));
      expect(() => lockedVersions(path.join(dir, 'lock.json'))).toThrow(/shared package react has no version/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is what every remote federation config and the host share table are built from', () => {
    for (const remote of ['wallet', 'convert', 'rewards', 'mail', 'settings']) {
      const config = createConfig(
        { name: remote, kind: 'remote', dir: path.join(ROOT, 'remotes', remote), exposes: {} },
        { mode: 'production' },
      );
      const federation = pluginNamed(config, 'ModuleFederationPlugin');
      expect((federation._options as { shared: unknown }).shared).toEqual(remoteSharedConfig());
    }
    expect(remoteSharedConfig()['react/']).toEqual({
      ...shareConfigOf(lockedVersions().react as string),
      version: lockedVersions().react,
    });
    const host = createConfig({ name: 'host', kind: 'host', dir: path.join(ROOT, 'host') }, { mode: 'production' });
    const define = pluginNamed(host, 'DefinePlugin');
    const definitions = (define._args as Record<string, string>[])[0] ?? {};
    expect(JSON.parse(definitions.__SHARED_CONFIG__ as string)).toEqual(hostSharedConfig());
  });
});
