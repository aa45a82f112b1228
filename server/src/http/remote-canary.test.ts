import { describe, expect, it } from 'vitest';
import { bucketOf, isPerVisitor, registryForVisitor, type StoredRegistry } from './remote-canary.ts';

const stable = { version: '1-a', manifest: '/remotes/wallet/1-a/mf-manifest.json', routes: ['/coinTopup'] };
const canary = { version: '1-b', manifest: '/remotes/wallet/1-b/mf-manifest.json', percent: 50 };
const registry: StoredRegistry = { remotes: { wallet: { ...stable, canary } }, bucketSalt: 'salt' };

describe('canary by user share (issue 35 item 3)', () => {
  it('a visitor keeps one bucket (sticky), and buckets spread over 0..99', () => {
    expect(bucketOf('u:1', 'wallet', 's')).toBe(bucketOf('u:1', 'wallet', 's'));
    const buckets = Array.from({ length: 2000 }, (_, i) => bucketOf(`a:${i}`, 'wallet', 's'));
    expect(Math.min(...buckets)).toBe(0);
    expect(Math.max(...buckets)).toBe(99);
    const under50 = buckets.filter((b) => b < 50).length;
    expect(under50).toBeGreaterThan(900);
    expect(under50).toBeLessThan(1100);
  });

  it('the visitors in the bucket get the canary, the others the stable; the salt and percent stay on the server', () => {
    const visitors = Array.from({ length: 200 }, (_, i) => `a:${i}`);
    for (const visitor of visitors) {
      const answer = registryForVisitor(registry, visitor) as { remotes: Record<string, Record<string, unknown>> };
      const expected = bucketOf(visitor, 'wallet', 'salt') < 50 ? '1-b' : '1-a';
      expect(answer.remotes.wallet?.version).toBe(expected);
      expect(answer.remotes.wallet?.routes).toEqual(['/coinTopup']);
      expect(JSON.stringify(answer)).not.toMatch(/salt|percent|canary|pins/);
    }
  });

  it('a pinned user gets the pinned version whatever the bucket; pins never reach the browser', () => {
    const pinned: StoredRegistry = {
      ...registry,
      remotes: {
        wallet: { ...stable, pins: { 'u:42': { version: '0-z', manifest: '/remotes/wallet/0-z/mf-manifest.json' } } },
      },
    };
    expect(isPerVisitor(pinned)).toBe(true);
    const answer = registryForVisitor(pinned, 'u:42') as { remotes: Record<string, { version: string }> };
    expect(answer.remotes.wallet?.version).toBe('0-z');
    expect(JSON.stringify(registryForVisitor(pinned, 'u:7'))).not.toContain('u:42');
  });

  it('without canary or pins the answer is the same for everyone', () => {
    expect(isPerVisitor({ remotes: { wallet: stable } })).toBe(false);
    expect(registryForVisitor({ remotes: { wallet: stable } }, null)).toEqual({ remotes: { wallet: stable } });
  });
});
