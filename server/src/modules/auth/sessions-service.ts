import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/audit-log.ts';
import type { SessionInfo } from './schemas.ts';
import { type Sessions, sessionIdOf } from './sessions.ts';
import { listLiveSessions, revokeSession, revokeUserSessions } from './sessions-repository.ts';

export interface SessionsService {
  list(request: FastifyRequest, userId: string): Promise<SessionInfo[]>;
  revokeOthers(request: FastifyRequest, userId: string): Promise<number>;
  /** Returns whether it was the caller's own session. */
  revoke(request: FastifyRequest, userId: string, sessionId: string): Promise<boolean>;
}

export function createSessionsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  sessions: Sessions;
}): SessionsService {
  const { db, now, sessions } = deps;
  return {
    async list(request, userId) {
      const at = now();
      const current = sessionIdOf(request);
      const rows = await listLiveSessions(db, userId, at, sessions.idleSince(at));
      return rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        lastSeenAt: r.last_seen_at.toISOString(),
        userAgent: r.user_agent,
        ip: r.ip,
        current: r.id === current,
      }));
    },
    async revokeOthers(request, userId) {
      const keep = sessionIdOf(request);
      return db.transaction().execute(async (trx) => {
        const revoked = await revokeUserSessions(trx, userId, now(), keep);
        await appendAudit(trx, { event: 'sessions_revoked', at: now(), userId, ip: request.ip, details: { revoked } });
        return revoked;
      });
    },
    async revoke(request, userId, sessionId) {
      return db.transaction().execute(async (trx) => {
        if (!(await revokeSession(trx, userId, sessionId, now()))) throw new NotFoundError('No such session');
        await appendAudit(trx, { event: 'session_revoked', at: now(), userId, ip: request.ip, details: { sessionId } });
        return sessionId === sessionIdOf(request);
      });
    },
  };
}
