import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertNoSkew,
  bundledCopies,
  type CandidateManifest,
  checkCandidate,
  SharedSkewError,
  singletonOwner,
  skewProblems,
} from './shared-skew.ts';

const host = { 'react-router': '7.4.2', react: '19.3.1', '@cw/shared-state': '0.1.0' };

describe('shared-version skew at deploy (issue 35)', () => {
  it('refuses a remote built against another minor, naming the package and both versions', () => {
    const shared = [{ name: 'react-router', version: '7.6.0', requiredVersion: '^7.6.0', singleton: true }];
    expect(skewProblems('wallet 1.9.0', shared, host)).toEqual([
      'wallet 1.9.0 needs react-router ^7.6.0 (built against 7.6.0), the host provides 7.4.2',
    ]);
    expect(() => assertNoSkew('wallet', shared, host)).toThrow(SharedSkewError);
  });

  it('lets a compatible patch-level difference deploy, either way', () => {
    for (const version of ['7.4.0', '7.4.9']) {
      const shared = [{ name: 'react-router', version, requiredVersion: '^7.4.0', singleton: true }];
      expect(() => assertNoSkew('wallet', shared, host)).not.toThrow();
    }
  });

  it('holds a subpath (react/jsx-runtime) to its package', () => {
    const shared = [{ name: 'react/jsx-runtime', version: '19.4.0', requiredVersion: '^19.4.0', singleton: true }];
    expect(skewProblems('wallet', shared, host)).toEqual([
      'wallet needs react/jsx-runtime ^19.4.0 (built against 19.4.0), the host provides 19.3.1',
    ]);
  });

  it('refuses a remote that shares a host singleton as a non-singleton (its own copy)', () => {
    const shared = [{ name: 'react', version: '19.3.1', requiredVersion: '^19.3.0', singleton: false }];
    expect(skewProblems('wallet', shared, host)[0]).toMatch(/bundles its own react 19\.3\.1; the host shares react/);
  });
});

/** A candidate build folder: its manifest, and chunks whose source maps list the given sources. */
async function candidate(manifest: CandidateManifest, chunks: Record<string, string[] | { code: string }>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skew-fixture-'));
  await writeFile(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
  for (const [file, content] of Object.entries(chunks)) {
    if (Array.isArray(content)) {
      await writeFile(path.join(dir, file), '/* chunk */');
      await writeFile(path.join(dir, `${file}.map`), JSON.stringify({ version: 3, sources: content, mappings: '' }));
    } else {
      await writeFile(path.join(dir, file), content.code);
    }
  }
  dirs.push(dir);
  return dir;
}
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const REACT_FALLBACK = {
  name: 'react',
  version: '19.3.1',
  requiredVersion: '^19.3.0',
  singleton: true,
  assets: { js: { sync: ['466.js'], async: [] } },
};
const owner = singletonOwner(['react', 'react-router', '@cw/shared-state'], {
  '@cw/shared-state': ['shared-state/src/session/index.ts', 'shared-state/src/web3/index.ts'],
});
const SRC = 'webpack://wallet/../..';

describe('a bundled copy of a singleton is refused at deploy (issue 35)', () => {
  it('passes a remote whose singletons are only in their shared fallbacks', async () => {
    const dist = await candidate(
      { shared: [REACT_FALLBACK] },
      {
        '466.js': [`${SRC}/node_modules/react/index.js`, `${SRC}/node_modules/react/cjs/react.production.js`],
        'remoteEntry.js': [`${SRC}/node_modules/@module-federation/runtime-core/dist/index.cjs`],
        '__federation_expose_routes.js': [`${SRC}/remotes/wallet/src/routes.ts`],
        // A lazy chunk split off the web3 fallback: workspace files, but not an exported entry.
        '8212.js': [`${SRC}/shared-state/src/web3/kit.ts`],
        // Translations: JSON modules get no source map.
        '2787.js': {
          code: `"use strict";(globalThis.rspackChunkwallet||=[]).push([[2787],{4174(e){e.exports=JSON.parse('{"hub":{"title":"Wallet"}}')}}]);`,
        },
      },
    );
    expect(await bundledCopies('wallet', dist, { shared: [REACT_FALLBACK] }, owner)).toEqual([]);
  });

  it('refuses react inlined into an exposed chunk while the manifest does not share it, naming the package', async () => {
    const manifest = { shared: [] };
    const dist = await candidate(manifest, {
      '__federation_expose_routes.js': [`${SRC}/remotes/wallet/src/routes.ts`, `${SRC}/node_modules/react/index.js`],
    });
    expect(await bundledCopies('wallet 1.9.0', dist, manifest, owner)).toEqual([
      'wallet 1.9.0 bundles its own copy of react (in __federation_expose_routes.js) and does not share it; the host provides it as a singleton',
    ]);
  });

  it('refuses a copy beside the shared fallback (a nested node_modules copy, an entry of shared-state)', async () => {
    const manifest = { shared: [REACT_FALLBACK] };
    const dist = await candidate(manifest, {
      '466.js': [`${SRC}/node_modules/react/index.js`],
      '901.js': [`${SRC}/node_modules/some-lib/node_modules/react/index.js`],
      '902.js': [`${SRC}/shared-state/src/session/index.ts`],
    });
    expect(await bundledCopies('wallet', dist, manifest, owner)).toEqual([
      'wallet bundles its own copy of react (in 901.js) besides its shared fallback; the host provides it as a singleton',
      'wallet bundles its own copy of @cw/shared-state (in 902.js) and does not share it; the host provides it as a singleton',
    ]);
  });

  it('refuses a code chunk it cannot read (no source map): fail closed', async () => {
    const manifest = { shared: [] };
    const dist = await candidate(manifest, { '77.js': { code: `function f(){return 1}`.repeat(100) } });
    expect(await bundledCopies('wallet', dist, manifest, owner)).toEqual([
      'wallet: 77.js has no source map, so it cannot be checked for bundled singletons',
    ]);
  });

  it('checkCandidate names the remote with its build version and every problem', async () => {
    const manifest = {
      metaData: { buildInfo: { buildVersion: '1.9.0' } },
      shared: [{ name: 'react-router', version: '7.6.0', requiredVersion: '^7.6.0', singleton: true }],
    };
    const dist = await candidate(manifest, { 'main.js': [`${SRC}/node_modules/react/index.js`] });
    const refused = checkCandidate('wallet', dist, host).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(await refused).toBe(
      'refused: wallet 1.9.0 needs react-router ^7.6.0 (built against 7.6.0), the host provides 7.4.2; ' +
        'wallet 1.9.0 bundles its own copy of react (in main.js) and does not share it; the host provides it as a singleton',
    );
  });
});
