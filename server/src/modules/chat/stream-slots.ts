import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

/**
 * At most this many chat event streams per user or operator at once, across every API instance (one
 * per tab, and a few tabs): each writes presence and costs a catch-up query per message.
 */
export const STREAMS_PER_HOLDER_MAX = 3;

export interface StreamSlots {
  /** Takes a slot for `holder` (`user:<id>`, `operator:<id>`) or refuses with RATE_LIMITED. Returns its id. */
  take(holder: string, session: string): Promise<string>;
  /** The stream is alive (each heartbeat): its slot keeps counting. */
  renew(id: string): Promise<void>;
  release(id: string): Promise<void>;
}

/**
 * Slots in table chat_streams (migration 0050), taken under an advisory lock on the holder so two
 * instances cannot both take the last one. A slot not renewed for three heartbeats (its process died)
 * no longer counts and is deleted by the next take of its holder.
 */
export function createStreamSlots(deps: { db: Kysely<Database>; now: () => Date; heartbeatMs: number }): StreamSlots {
  const { db, now, heartbeatMs } = deps;
  return {
    take: (holder, session) =>
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`chat-streams:${holder}`}, 0))`.execute(trx);
        const at = now();
        await trx
          .deleteFrom('chat_streams')
          .where('holder', '=', holder)
          .where('seen_at', '<', new Date(at.getTime() - 3 * heartbeatMs))
          .execute();
        const { n } = await trx
          .selectFrom('chat_streams')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('holder', '=', holder)
          .executeTakeFirstOrThrow();
        if (Number(n) >= STREAMS_PER_HOLDER_MAX)
          throw new AppError('RATE_LIMITED', `At most ${STREAMS_PER_HOLDER_MAX} chat streams at once`, {
            details: { limit: STREAMS_PER_HOLDER_MAX, retryAfterSeconds: Math.ceil((3 * heartbeatMs) / 1000) },
          });
        const row = await trx
          .insertInto('chat_streams')
          .values({ holder, session, opened_at: at, seen_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      }),
    async renew(id) {
      await db.updateTable('chat_streams').set({ seen_at: now() }).where('id', '=', id).execute();
    },
    async release(id) {
      await db.deleteFrom('chat_streams').where('id', '=', id).execute();
    },
  };
}
