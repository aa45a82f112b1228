import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { buildApp } from '../app.ts';
import { createOfflineDb } from '../db/offline-db.ts';
import { createStaticDir, type StaticDirFixture } from '../test/static-dir.ts';
import { bucketOf } from './remote-canary.ts';

const stable = { version: '1-a', manifest: '/remotes/wallet/1-a/mf-manifest.json', routes: ['/coinTopup'] };
const canary = { version: '1-b', manifest: '/remotes/wallet/1-b/mf-manifest.json', percent: 50 };

describe('/remotes.json per visitor while a canary runs (issue 35 item 3)', () => {
  let fixture: StaticDirFixture;
  let app: App;
  beforeAll(async () => {
    fixture = await createStaticDir();
    await fixture.writeRegistry({ remotes: { wallet: { ...stable, canary } }, bucketSalt: 's1' });
    app = buildApp({ db: createOfflineDb(), staticDir: fixture.dir });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await fixture.remove();
  });

  it('a new visitor gets an anonymous id cookie and an answer no cache keeps', async () => {
    const answer = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const cookie = answer.cookies.find((c) => c.name === 'rbid');
    expect(cookie?.httpOnly).toBe(true);
    const id = cookie?.value as string;
    const expected = bucketOf(`a:${id}`, 'wallet', 's1') < 50 ? '1-b' : '1-a';
    expect(answer.json().remotes.wallet.version).toBe(expected);
    // Sticky: the same id, the same version, and no new cookie.
    const again = await app.inject({ method: 'GET', url: '/remotes.json', cookies: { rbid: id } });
    expect(again.json().remotes.wallet.version).toBe(expected);
    expect(again.cookies.find((c) => c.name === 'rbid')).toBeUndefined();
    expect(again.body).not.toMatch(/canary|percent|bucketSalt/);
  });

  it('without a canary the answer is shared and no-cache, as before', async () => {
    await fixture.writeRegistry({ remotes: { wallet: stable } });
    const answer = await app.inject({ method: 'GET', url: '/remotes.json' });
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.cookies).toHaveLength(0);
    expect(answer.json()).toEqual({ remotes: { wallet: stable } });
  });
});
