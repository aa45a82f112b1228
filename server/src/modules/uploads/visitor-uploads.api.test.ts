import { describe, expect, it } from 'vitest';
import { clientNetwork } from '../../lib/client-network.ts';
import { useAuthHarness } from '../auth/test-helpers.ts';
import { VISITOR_UPLOAD_BYTES_PER_HOUR, VISITOR_UPLOADS_PER_HOUR } from './places.ts';
import { purgeUnattachedUploads } from './repository.ts';
import { multipart, noisyPng, png } from './test-helpers.ts';

/**
 * Issue 38 item 8 (rest): visitors (leave-a-message, no account) were counted per full IP, so one
 * IPv6 host rotating through its /64 (2^64 addresses) had no limit, and there was no byte budget.
 */
const h = useAuthHarness();

const upload = async (ip: string, bytes: Buffer) => {
  const body = multipart('shot.png', bytes);
  return h.app.inject({
    method: 'POST',
    url: '/api/support/uploads',
    remoteAddress: ip,
    headers: body.headers,
    payload: body.payload,
  });
};

describe('visitor uploads', () => {
  it('names the network a visitor is counted by: an IPv4 address, an IPv6 /64', () => {
    expect(clientNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('2001:db8:1:2::ffff:1.2.3.4')).toBe('2001:db8:1:2::/64');
    // IPv4 clients written as IPv6 count as their IPv4 address, however spelt (review s12).
    expect(clientNetwork('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(clientNetwork('64:ff9b::198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork('64:ff9b::c633:6408')).toBe('198.51.100.8');
    expect(clientNetwork('fe80::1:2%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('not an address')).toBe('not an address');
  });

  it('counts one IPv6 /64 as one visitor: rotating addresses inside it gets no more uploads', async () => {
    const picture = await png();
    for (let i = 0; i < VISITOR_UPLOADS_PER_HOUR; i++) {
      const res = await upload(`2001:db8:77:1::${(i + 1).toString(16)}`, picture);
      expect(res.statusCode, res.body).toBe(201);
    }
    const rotated = await upload('2001:db8:77:1:ffff:ffff:ffff:fffe', picture);
    expect(rotated.statusCode).toBe(429);
    expect(rotated.json().code).toBe('RATE_LIMITED');
    // Another /64 is another visitor.
    expect((await upload('2001:db8:77:2::1', picture)).statusCode).toBe(201);
  }, 60_000);

  it('a visitor network has a byte budget an hour', async () => {
    // Large pictures (noise does not compress) until the budget is spent.
    const big = await noisyPng(1200, 1200);
    let taken = 0;
    let refused: Awaited<ReturnType<typeof upload>> | null = null;
    for (let i = 0; i < VISITOR_UPLOADS_PER_HOUR && !refused; i++) {
      const res = await upload('203.0.113.9', big);
      if (res.statusCode === 201) taken += Number(res.json().sizeBytes ?? 0);
      else refused = res;
    }
    expect(refused?.statusCode).toBe(429);
    expect(taken).toBeLessThanOrEqual(VISITOR_UPLOAD_BYTES_PER_HOUR);
  }, 120_000);

  it('uploads never attached to a message are purged a day later; attached ones stay', async () => {
    const picture = await png();
    const [kept, left] = [await upload('192.0.2.55', picture), await upload('192.0.2.55', picture)];
    expect([kept.statusCode, left.statusCode]).toEqual([201, 201]);
    await h.db
      .updateTable('uploads')
      .set({ attached_to: 'ticket-message:00000000-0000-4000-8000-000000000001' })
      .where('id', '=', kept.json().id)
      .execute();
    const ids = async () =>
      (await h.db.selectFrom('uploads').select('id').where('id', 'in', [kept.json().id, left.json().id]).execute()).map(
        (r) => r.id,
      );
    const at = h.clock.now().getTime();
    expect(await purgeUnattachedUploads(h.db, new Date(at + 23 * 3_600_000), 100)).toBe(0);
    expect(await purgeUnattachedUploads(h.db, new Date(at + 25 * 3_600_000), 100)).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual([kept.json().id]);
  });
});
