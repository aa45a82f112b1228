import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createStaticDir, type StaticDirFixture } from '../test/static-dir.ts';
import { createRemoteOrigins, originsOf, pinnedRemoteOrigins } from './remote-registry.ts';

function directives(header: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values.join(' '));
  }
  return map;
}

describe('originsOf', () => {
  const registry = {
    remotes: {
      wallet: { version: '1.0.0', manifest: '/remotes/wallet/1.0.0/mf-manifest.json', routes: ['/coinTopup'] },
      convert: { version: '2.0.0', manifest: 'https://evil.example.net/convert/2.0.0/mf-manifest.json' },
    },
  };

  it('a registry cannot authorise its own origin: only pinned origins (REMOTE_ORIGINS) reach script-src', () => {
    expect(originsOf(registry)).toEqual([]);
    expect(originsOf(registry, ['https://cdn.example.com'])).toEqual([]);
    expect(originsOf(registry, ['https://evil.example.net'])).toEqual(['https://evil.example.net']);
    expect(pinnedRemoteOrigins(' https://cdn.example.com/x , https://cdn.example.com:8443 ')).toEqual([
      'https://cdn.example.com',
      'https://cdn.example.com:8443',
    ]);
    expect(pinnedRemoteOrigins(undefined)).toEqual([]);
    expect(() => pinnedRemoteOrigins('javascript:alert(1)')).toThrow(/not http/);
  });

  it('takes origins of absolute manifest URLs only', () => {
    expect(
      originsOf(
        {
          remotes: {
            wallet: { version: '1.0.0', manifest: '/remotes/wallet/1.0.0/mf-manifest.json', routes: ['/coinTopup'] },
            convert: { version: '2.0.0', manifest: 'https://cdn.example.com/convert/2.0.0/mf-manifest.json' },
            mail: { version: '1', manifest: 'https://cdn.example.com:8443/mail/mf-manifest.json' },
            again: { version: '1', manifest: 'https://cdn.example.com/other.json' },
            bad: { version: '1', manifest: 'javascript:alert(1)' },
          },
        },
        ['https://cdn.example.com', 'https://cdn.example.com:8443'],
      ),
    ).toEqual(['https://cdn.example.com', 'https://cdn.example.com:8443']);
    expect(originsOf(null)).toEqual([]);
    expect(originsOf({ remotes: 'x' })).toEqual([]);
  });
});

describe('security headers', () => {
  let fixture: StaticDirFixture;
  beforeAll(async () => {
    fixture = await createStaticDir();
  });
  afterAll(() => fixture.remove());

  it('sends a CSP allowing self and the registry remote origins that are pinned', async () => {
    await fixture.writeRegistry({
      remotes: {
        wallet: { version: '1.0.0', manifest: '/remotes/wallet/1.0.0/mf-manifest.json', routes: ['/coinTopup'] },
        rewards: { version: '3.1.0', manifest: 'https://rewards.cdn.example/3.1.0/mf-manifest.json', routes: [] },
      },
    });
    const app = buildApp({
      db: createOfflineDb(),
      staticDir: fixture.dir,
      remoteOrigins: ['https://rewards.cdn.example', 'https://convert.cdn.example'],
    });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toBe("'self' https://rewards.cdn.example");
    expect(csp.get('connect-src')).toBe("'self' https://rewards.cdn.example");
    expect(csp.get('style-src')).toBe("'self' https://rewards.cdn.example 'unsafe-inline'");
    expect(csp.get('img-src')).toBe("'self' https://rewards.cdn.example data: blob:");
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    // A deploy switches the registry: the next response has the new origins, no restart.
    await fixture.writeRegistry({
      remotes: { convert: { version: '2.0.0', manifest: 'https://convert.cdn.example/mf-manifest.json', routes: [] } },
    });
    const after = await app.inject({ method: 'GET', url: '/api/health' });
    expect(directives(after.headers['content-security-policy'] as string).get('script-src')).toBe(
      "'self' https://convert.cdn.example",
    );
  });

  it('allows only self without a registry', async () => {
    const app = buildApp({ db: createOfflineDb() });
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(directives(res.headers['content-security-policy'] as string).get('script-src')).toBe("'self'");
  });
});

describe('createRemoteOrigins', () => {
  let fixture: StaticDirFixture;
  beforeAll(async () => {
    fixture = await createStaticDir();
  });
  afterAll(() => fixture.remove());

  it('re-reads only when the file changes and keeps the last good value on bad JSON', async () => {
    const file = path.join(fixture.dir, 'remotes.json');
    const errors: unknown[] = [];
    const origins = createRemoteOrigins(file, (err) => errors.push(err), ['https://a.example', 'https://b.example']);
    expect(origins.current()).toEqual([]);
    await fixture.writeRegistry({ remotes: { a: { version: '1', manifest: 'https://a.example/m.json' } } });
    expect(origins.current()).toEqual(['https://a.example']);
    await fixture.write('remotes.json', '{ not json');
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    expect(origins.current()).toEqual(['https://a.example']);
    expect(errors).toHaveLength(1);
  });
});
