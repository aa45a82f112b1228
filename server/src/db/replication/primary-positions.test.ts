import { describe, expect, it } from 'vitest';
import { PrimaryPositions } from './primary-positions.ts';

describe('the lag yardstick: the primary position maxLag ago (review s8b I)', () => {
  it('picks the newest sample at least maxLag old, the oldest at start-up, none once the sampler stalls', () => {
    const p = new PrimaryPositions(1_000, 250);
    expect(p.floor(0)).toBeNull();
    p.add({ atMs: 0, lsn: '0/10' });
    p.add({ atMs: 250, lsn: '0/20' });
    // Start-up: nothing a full ceiling old yet, so the oldest (a stricter, later position than maxLag ago).
    expect(p.floor(500)).toBe('0/10');
    p.add({ atMs: 500, lsn: '0/30' });
    p.add({ atMs: 750, lsn: '0/40' });
    expect(p.floor(1_300)).toBe('0/20');
    // The sampler stopped: past maxLag + 3 intervals nothing is trusted (the primary answers).
    expect(p.floor(750 + 1_000 + 750)).toBe('0/40');
    expect(p.floor(750 + 1_000 + 751)).toBeNull();
  });

  it('keeps a bounded ring', () => {
    const p = new PrimaryPositions(1_000, 100);
    for (let i = 0; i < 1_000; i += 1) p.add({ atMs: i * 100, lsn: `0/${i.toString(16)}` });
    expect((p as unknown as { samples: unknown[] }).samples.length).toBe(14);
    expect(p.floor(999 * 100 + 1)).toBe(`0/${(989).toString(16)}`);
  });
});
