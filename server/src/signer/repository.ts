import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, SignerTransactionsTable } from '../db/schema.ts';
import type { NetworkCode } from '../modules/catalogue/catalogue.ts';

/**
 * The signer's own table, `signer_transactions`: one row per signed attempt, written before its
 * broadcast. Withdrawals are read and moved only through the withdrawals module.
 */
type Db = Kysely<Database>;
export type Attempt = Selectable<SignerTransactionsTable>;

/** Attempts of one withdrawal share a nonce; more than this would be a bug (replacements are capped at 32). */
const ATTEMPTS_LIMIT = 64;

/** Serialises signing per hot wallet and chain until the transaction ends: nonces are handed out in order. */
export async function lockHotWallet(trx: Db, chainId: string | number, address: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`signer:${chainId}:${address}`}))`.execute(trx);
}

export function insertAttempt(
  trx: Db,
  attempt: Omit<
    Attempt,
    'id' | 'broadcast_count' | 'last_error' | 'block_number' | 'broadcast_at' | 'attempt' | 'kind'
  > & {
    attempt?: number;
    kind?: Attempt['kind'];
  },
): Promise<Attempt> {
  return trx.insertInto('signer_transactions').values(attempt).returningAll().executeTakeFirstOrThrow();
}

/** Notes a broadcast's answer: the count, the error (null when a node holds the bytes), the first time. */
export async function noteBroadcast(db: Db, id: string, error: string | null, at: Date): Promise<void> {
  await db
    .updateTable('signer_transactions')
    .set((eb) => ({
      broadcast_count: eb('broadcast_count', '+', 1),
      last_error: error,
      // Only a node that took the bytes (accepted, or already knew them) starts the replacement timer:
      // a refused broadcast (insufficient funds, say) is not "in a mempool" (issue 37, item 7).
      broadcast_at: error === null ? eb.fn.coalesce('broadcast_at', eb.val(at)) : eb.ref('broadcast_at'),
      updated_at: at,
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Marks the mined attempt mined (or reverted) and its siblings replaced; false when another tick
 * settled it first (the attempt is no longer `signed`), so the withdrawal is settled exactly once.
 */
export async function markMined(
  trx: Db,
  attempt: Pick<Attempt, 'id' | 'withdrawal_id'>,
  outcome: { ok: boolean; blockNumber: bigint },
  at: Date,
): Promise<boolean> {
  const updated = await trx
    .updateTable('signer_transactions')
    .set({ state: outcome.ok ? 'mined' : 'reverted', block_number: outcome.blockNumber.toString(), updated_at: at })
    .where('id', '=', attempt.id)
    .where('state', '=', 'signed')
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return false;
  await trx
    .updateTable('signer_transactions')
    .set({ state: 'replaced', updated_at: at })
    .where('withdrawal_id', '=', attempt.withdrawal_id)
    .where('id', '<>', attempt.id)
    .where('state', '=', 'signed')
    .execute();
  return true;
}

export function newestAttempt(trx: Db, withdrawalId: string) {
  return trx
    .selectFrom('signer_transactions')
    .select(['attempt', 'state'])
    .where('withdrawal_id', '=', withdrawalId)
    .orderBy('attempt', 'desc')
    .executeTakeFirst();
}

export function loadAttempts(db: Db, withdrawalId: string): Promise<Attempt[]> {
  return db
    .selectFrom('signer_transactions')
    .selectAll()
    .where('withdrawal_id', '=', withdrawalId)
    .orderBy('attempt')
    .limit(ATTEMPTS_LIMIT)
    .execute();
}

/** Withdrawals with recorded, unsettled attempts, oldest first. */
export function listOpenWithdrawals(db: Db, limit: number): Promise<{ withdrawal_id: string; network: NetworkCode }[]> {
  return db
    .selectFrom('signer_transactions')
    .select(['withdrawal_id', 'network'])
    .select((eb) => eb.fn.min('id').as('first_id'))
    .where('state', '=', 'signed')
    .groupBy(['withdrawal_id', 'network'])
    .orderBy('first_id')
    .limit(limit)
    .execute();
}

/** The highest nonce this hot wallet recorded on the chain, or -1 when none. */
export async function maxRecordedNonce(trx: Db, chainId: number, fromAddress: string): Promise<bigint> {
  const { rows } = await sql<{ max: string | null }>`
    select max(nonce)::text as max from signer_transactions
    where chain_id = ${chainId} and from_address = ${fromAddress}`.execute(trx);
  return rows[0]?.max == null ? -1n : BigInt(rows[0].max);
}
