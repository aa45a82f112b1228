import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type ChainState, GENESIS_HASH, verifyChain } from './chain.ts';

/**
 * The console's chain state without a full walk per page load (review 32a, finding 10: each load, or a
 * reload loop, hashed the whole log on the API's pool). The newest link found sound is kept in
 * audit_verify_checkpoint (migration 0093); a verify walks only the rows after it, after checking that
 * the checkpoint's own row still has the hash it had (a rewrite before it changes every later hash,
 * so it shows there). One verify at a time over every instance (an advisory lock, waited for at most
 * LOCK_WAIT): the callers queue instead of hashing in parallel, and each finds the work done.
 * `npm run ops -- audit verify` still walks everything.
 */
const CHECKPOINT_LOCK = 0x617564_7663; // 'audvc'
const LOCK_WAIT = '10s';

export async function verifyFromCheckpoint(db: Kysely<Database>, _now: Date): Promise<ChainState> {
  return db.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(trx);
    await sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK})`.execute(trx);
    const { rows } = await sql<{ seq: string; hash: Buffer; still: Buffer | null }>`
      select c.seq, c.hash, e.hash as still from audit_verify_checkpoint c
      left join audit_events e on e.chain_seq = c.seq where c.id = 1`.execute(trx);
    const checkpoint = rows[0] ?? null;
    const sound =
      checkpoint === null ||
      (checkpoint.seq === '0' ? checkpoint.hash.equals(GENESIS_HASH) : checkpoint.still?.equals(checkpoint.hash));
    if (checkpoint && !sound) {
      // A link that was verified has changed or gone: that is a rewrite, even if re-sealed since.
      const state = await verifyChain(trx);
      if (!state.ok) return state;
      const reason = checkpoint.still === null ? 'missing_row' : 'hash_mismatch';
      return { ...state, ok: false, brokenAt: { chainSeq: checkpoint.seq, id: null, reason } };
    }
    const state = await verifyChain(trx, undefined, checkpoint);
    if (state.ok)
      // Through the owner's function (migration 0107): a link of the chain, forward only, database time.
      await sql`select audit_record_checkpoint(${state.head.seq}, decode(${state.head.hash}, 'hex'))`.execute(trx);
    return state;
  });
}
