import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { placeFromIp } from '../../lib/ip-place.ts';
import { appendAudit } from '../audit/repository.ts';
import { deviceHashOf } from '../security/device-cookie.ts';
import { forgetOtherDevices } from '../security/devices-repository.ts';
import { deviceOf } from '../security/login-history.ts';
import { recentlyAuthenticated } from '../security/reauth.ts';
import type { Client } from './client.ts';
import type { SessionInfo } from './schemas.ts';
import type { Sessions } from './sessions.ts';
import { listLiveSessions, revokeSession, revokeUserSessions } from './sessions-repository.ts';

/** Work to end with a user's other sessions, in the same transaction (auth-module.ts `onSessionsEnded`). */
export type SessionsEndedHook = (trx: Transaction<Database>, userId: string, at: Date) => Promise<unknown>;

export interface SessionsService {
  list(client: Client, userId: string): Promise<SessionInfo[]>;
  revokeOthers(client: Client, userId: string): Promise<number>;
  /** Returns whether it was the caller's own session. */
  revoke(client: Client, userId: string, sessionId: string): Promise<boolean>;
}

export function createSessionsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  sessions: Sessions;
  onSessionsEnded: SessionsEndedHook;
}): SessionsService {
  const { db, now, sessions } = deps;
  return {
    async list(client, userId) {
      const at = now();
      const current = client.sessionId;
      const rows = await listLiveSessions(db, userId, at, sessions.idleSince(at));
      return rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        lastSeenAt: r.last_seen_at.toISOString(),
        userAgent: r.user_agent,
        ip: r.ip,
        // Read now from the session's IP (offline data): where the device is, roughly.
        device: deviceOf(r.user_agent),
        place: r.ip ? placeFromIp(r.ip) : { country: null, region: null, city: null },
        current: r.id === current,
      }));
    },
    async revokeOthers(client, userId) {
      const keep = client.sessionId ?? undefined;
      return db.transaction().execute(async (trx) => {
        // The other browsers are forgotten only by an owner who proved the password within minutes: a
        // stolen session alone must not strip the owner's browsers of their own sign-in counter.
        if (await recentlyAuthenticated(trx, client, now()))
          await forgetOtherDevices(trx, userId, deviceHashOf(client));
        const revoked = await revokeUserSessions(trx, userId, now(), keep);
        await deps.onSessionsEnded(trx, userId, now());
        await appendAudit(trx, { event: 'sessions_revoked', at: now(), userId, ip: client.ip, details: { revoked } });
        return revoked;
      });
    },
    async revoke(client, userId, sessionId) {
      return db.transaction().execute(async (trx) => {
        if (!(await revokeSession(trx, userId, sessionId, now()))) throw new NotFoundError('No such session');
        await appendAudit(trx, { event: 'session_revoked', at: now(), userId, ip: client.ip, details: { sessionId } });
        return sessionId === client.sessionId;
      });
    },
  };
}
