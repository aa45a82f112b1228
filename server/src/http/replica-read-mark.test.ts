import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ReadRouting } from '../db/replication/read-routing.ts';
import { registerReplicaReads } from './replica-reads.ts';

/** Review s8 finding 5: the cw_rlsn mark from the Cookie header, as the replica-read routes see it. */
async function markSeen(cookie: string): Promise<{ status: number; mark: string | null | undefined }> {
  let mark: string | null | undefined;
  const routing = {
    run: (minLsn: string | null, fn: () => unknown) => {
      mark = minLsn;
      return fn();
    },
  } as unknown as ReadRouting;
  const app = Fastify();
  registerReplicaReads(app, routing);
  app.get('/api/wallet/history', { config: { replicaRead: true } }, async () => ({ ok: true }));
  try {
    const res = await app.inject({ method: 'GET', url: '/api/wallet/history', headers: { cookie } });
    return { status: res.statusCode, mark };
  } finally {
    await app.close();
  }
}

describe('the read-your-writes mark (cw_rlsn)', () => {
  it('ignores a malformed mark (bad % escape, garbage, huge) instead of answering 500', async () => {
    for (const cookie of [
      'cw_rlsn=%',
      'cw_rlsn=%E0%A4%A',
      'cw_rlsn=zz/zz',
      `cw_rlsn=${'F'.repeat(500)}/1`,
      'cw_rlsn=1/2/3',
    ]) {
      expect(await markSeen(cookie), cookie).toEqual({ status: 200, mark: null });
    }
  });

  it('takes the highest valid mark among several, skipping bad ones', async () => {
    expect((await markSeen('cw_rlsn=0/0; cw_rlsn=5/10')).mark).toBe('5/10');
    expect((await markSeen('cw_rlsn=%; cw_rlsn=1/FFFFFFFF; cw_rlsn=2/0; a=b')).mark).toBe('2/0');
    expect((await markSeen('cw_rlsn=A/1; x=1; cw_rlsn=9/FFFFFFFF')).mark).toBe('A/1');
    expect((await markSeen('cw_rlsn=16%2FB374D848')).mark).toBe('16/B374D848');
    expect((await markSeen('other=1')).mark).toBe(null);
  });
});

describe('who gets a mark (review s8b G)', () => {
  async function marksOf(signedIn: boolean): Promise<{ lsnReads: number; cookie: string | undefined }> {
    let lsnReads = 0;
    const routing = {
      run: (_minLsn: string | null, fn: () => unknown) => fn(),
      primaryLsn: async () => {
        lsnReads += 1;
        return '0/10';
      },
    } as unknown as ReadRouting;
    const app = Fastify();
    await app.register(fastifyCookie);
    app.decorateRequest('user', null);
    registerReplicaReads(app, routing);
    app.post('/api/client-events', async (request) => {
      if (signedIn) request.user = { userId: 'u1' };
      return { ok: true };
    });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/client-events', payload: {} });
      expect(res.statusCode).toBe(200);
      const header = res.headers['set-cookie'];
      const cookie = (Array.isArray(header) ? header : [header]).find((c) => c?.startsWith('cw_rlsn='));
      return { lsnReads, cookie };
    } finally {
      await app.close();
    }
  }

  it('an anonymous write takes no mark (no LSN read: a flood of them cannot drain the mark pool)', async () => {
    expect(await marksOf(false)).toEqual({ lsnReads: 0, cookie: undefined });
  });

  it("a signed-in caller's write takes one", async () => {
    const seen = await marksOf(true);
    expect(seen.lsnReads).toBe(1);
    expect(seen.cookie).toMatch(/^cw_rlsn=0\/10;/);
  });
});
