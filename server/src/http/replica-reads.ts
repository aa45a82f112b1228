import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LSN_TEXT, type ReadRouting } from '../db/replication/read-routing.ts';
import { isApiRequest } from './csrf.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This GET's lag-tolerant reads may go to the replica (DATABASE_READ_URL). Only history pages,
     * announcements and notices, proof of liabilities: never a read that decides money. The list is
     * pinned by db/replication/replica-routes.test.ts.
     */
    replicaRead?: boolean;
  }
}

/** The caller's last write position (pg_lsn text). Not a secret and not trusted for anything but freshness. */
export const READ_MARK_COOKIE = 'cw_rlsn';
/** How long a write keeps its writer's reads behind the replica's replay: a replica further behind is broken. */
export const READ_MARK_MAX_AGE_S = 300;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** At most this many cw_rlsn cookies are looked at (a header stuffed with thousands costs nothing). */
const MAX_MARKS = 8;

/** `hi/lo` as one 64-bit number, to compare marks. */
function lsnValue(lsn: string): bigint {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

/**
 * The caller's mark: the highest valid cw_rlsn among those sent (a browser sends longer-path cookies
 * first, and a sibling subdomain may plant one: the highest keeps the writer's own read-your-writes).
 * A malformed one (bad % escape, garbage, too long) is ignored, never a 500.
 */
export function markOf(request: Pick<FastifyRequest, 'headers'>): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  let best: string | null = null;
  const pattern = new RegExp(`(?:^|;)\\s*${READ_MARK_COOKIE}=([^;]*)`, 'g');
  let seen = 0;
  for (const match of header.matchAll(pattern)) {
    seen += 1;
    if (seen > MAX_MARKS) break;
    const raw = (match[1] ?? '').trim();
    if (raw.length > 40) continue;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      continue;
    }
    if (!LSN_TEXT.test(value)) continue;
    if (best === null || lsnValue(value) > lsnValue(best)) best = value.toUpperCase();
  }
  return best;
}

/**
 * Marks replica-read routes (GET only: the server refuses to start otherwise) and, with a read replica
 * configured, runs them in the read context and sets the writer's mark after every successful write by a
 * signed-in caller.
 *
 * Why a cookie and trusting it: the mark only ever sends reads to the PRIMARY (never away from it). A
 * forged or huge mark gets its sender what a deployment without a replica gives everyone; a deleted
 * one gets them their own stale page. Nothing in it decides money or access, so it needs no signature.
 */
export function registerReplicaReads(app: FastifyInstance, routing: ReadRouting | undefined): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.replicaRead) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD'))
      throw new Error(`${route.url}: only a GET may read the replica (config.replicaRead)`);
  });
  if (!routing) return;
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config?.replicaRead) return done();
    routing.run(markOf(request), done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (SAFE_METHODS.has(request.method) || !isApiRequest(request) || reply.statusCode >= 400) return payload;
    // Only a signed-in caller's write (review s8b G): replica reads are per user, and an anonymous POST
    // (client events, sign-in codes) neither waits for the mark nor keeps the mark's two connections busy.
    if (!request.user) return payload;
    try {
      // After the handler's commit: the primary's insert position is at or past it.
      const lsn = await routing.primaryLsn();
      reply.setCookie(READ_MARK_COOKIE, lsn, {
        path: '/api',
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        maxAge: READ_MARK_MAX_AGE_S,
      });
    } catch (err) {
      // The write stands; only this writer's next replica read may be behind it.
      request.log.warn({ err }, 'cannot read the primary WAL position for the read-your-writes mark');
    }
    return payload;
  });
}
