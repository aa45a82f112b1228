import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createOfflineDb } from '../db/offline-db.ts';
import { buildTestApp } from '../test/app.ts';
import { registerReplicaReads } from './replica-reads.ts';

/**
 * The routes whose reads may be served by the replica (DATABASE_READ_URL, issue 34). Adding one here
 * is a review decision: only lag-tolerant reads (history pages, announcements and notices, proof of
 * liabilities), never a read that decides money (balances before a withdrawal, quotes, limits, anything
 * inside a money transaction). A stale answer on these costs freshness, never money.
 */
const REPLICA_ROUTES = [
  'GET /api/notices/announcements',
  'GET /api/notices/system',
  'GET /api/notices/unread',
  'GET /api/por',
  'GET /api/por/proof',
  'GET /api/por/status',
  'GET /api/wallet/history',
];

describe('routes that read the replica', () => {
  it('are exactly the reviewed list, all GETs, none about balances, quotes or withdrawals', async () => {
    const app = buildTestApp({ db: createOfflineDb() });
    const marked: string[] = [];
    app.addHook('onRoute', (route) => {
      if (!route.config?.replicaRead) return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const m of methods) if (m !== 'HEAD') marked.push(`${m} ${route.url}`);
    });
    await app.ready();
    await app.close();
    expect(marked.sort()).toEqual(REPLICA_ROUTES);
    for (const route of marked) expect(route).not.toMatch(/balance|quote|withdraw|convert|exchange|ramp|send/);
  });

  it('refuses to start with a replica read on a route that is not a GET', async () => {
    const app = Fastify();
    registerReplicaReads(app, undefined);
    app.register(
      async (api) => {
        api.post('/x', { config: { replicaRead: true } }, async () => ({}));
      },
      { prefix: '/api' },
    );
    await expect(app.ready()).rejects.toThrow(/only a GET may read the replica/);
    await app.close().catch(() => undefined);
  });
});
