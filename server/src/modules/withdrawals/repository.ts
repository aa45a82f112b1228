import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, WithdrawalsTable } from '../../db/schema.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import { frozenUsers } from '../deposits/reorg-alerts.ts';
import { accountFrozenUsers } from '../security/freeze-state.ts';
import { complianceStoppedUsers } from './compliance-stop.ts';
import { assertTransition, type WithdrawalState } from './state-machine.ts';

type Db = Kysely<Database>;
export type WithdrawalRow = Selectable<WithdrawalsTable>;

export interface NewWithdrawal {
  userId: string;
  idempotencyKey: string;
  coin: CoinCode;
  network: NetworkCode;
  address: string;
  amountMinor: bigint;
  feeMinor: bigint;
  /** USD cents when placed (outflow-budget.ts); unset: valued when the budget is summed. */
  valueUsdCents?: bigint;
  /** Who decided it (default 'user'): exchange payouts and refunds stay out of the user's budget. */
  origin?: 'user' | 'ramp' | 'exchange';
}

/** Inserts in_review; undefined when the user already used the idempotency key (nothing written). */
export async function insertWithdrawal(db: Db, w: NewWithdrawal, now: Date): Promise<WithdrawalRow | undefined> {
  return db
    .insertInto('withdrawals')
    .values({
      user_id: w.userId,
      idempotency_key: w.idempotencyKey,
      coin: w.coin,
      network: w.network,
      address: w.address,
      amount_minor: w.amountMinor.toString(),
      fee_minor: w.feeMinor.toString(),
      ...(w.valueUsdCents === undefined ? {} : { value_usd_cents: w.valueUsdCents.toString() }),
      ...(w.origin === undefined ? {} : { origin: w.origin }),
      state: 'in_review',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findByKey(db: Db, userId: string, idempotencyKey: string) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

export async function findWithdrawal(db: Db, id: string, options: { forUpdate?: boolean } = {}) {
  let query = db.selectFrom('withdrawals').selectAll().where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * Moves a withdrawal from `from` to `to` (checked against the state machine first); the WHERE on the
 * old state makes a concurrent second move find nothing. Returns the row, or undefined when the
 * withdrawal was not in `from`.
 */
export async function transition(
  db: Db,
  id: string,
  from: WithdrawalState,
  to: WithdrawalState,
  patch: { review?: 'auto' | 'manual'; reason?: string; txHash?: string; reviewedBy?: string },
  now: Date,
): Promise<WithdrawalRow | undefined> {
  assertTransition(from, to);
  return db
    .updateTable('withdrawals')
    .set({
      state: to,
      updated_at: now,
      ...(patch.review ? { review: patch.review } : {}),
      ...(patch.reviewedBy ? { reviewed_by: patch.reviewedBy } : {}),
      ...(patch.reason !== undefined ? { reason: patch.reason } : {}),
      ...(patch.txHash ? { tx_hash: patch.txHash } : {}),
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .returningAll()
    .executeTakeFirst();
}

/** What the user asked to withdraw of `coin` since `since`, rejected and failed ones excluded. */
export async function withdrawnSince(db: Db, userId: string, coin: string, since: Date): Promise<bigint> {
  const { rows } = await sql<{ total: string | null }>`
    select sum(amount_minor)::text as total from withdrawals
    where user_id = ${userId} and coin = ${coin} and created_at > ${since}
      and state not in ('review_rejected', 'transfer_failed')`.execute(db);
  return BigInt(rows[0]?.total ?? '0');
}

export async function listByState(db: Db, states: readonly WithdrawalState[], limit: number) {
  return db
    .selectFrom('withdrawals')
    .selectAll()
    .where('state', 'in', states)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Approved withdrawals on `networks` waiting for the signer, oldest first. */
export function listApprovedForSigning(db: Db, networks: readonly NetworkCode[], limit: number, now: Date) {
  return (
    db
      .selectFrom('withdrawals')
      .select(['id', 'coin', 'network', 'address', 'arrival_minor'])
      .where('state', '=', 'review_approved')
      .where('network', 'in', networks)
      // A user whose credited deposit a deep reorg took away waits for an operator (deposits/reorg-alerts.ts).
      .where('user_id', 'not in', frozenUsers(db))
      // A user who froze the account: exchange and sell payouts wait for the thaw (security/freeze.ts).
      .where('user_id', 'not in', accountFrozenUsers(db, now))
      // Compliance's withdrawal hold: approved ones wait for its release (compliance-stop.ts).
      .where('user_id', 'not in', complianceStoppedUsers(db))
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute()
  );
}

/** The withdrawal's state, its row locked until the caller's transaction ends. */
export async function lockState(trx: Db, id: string): Promise<WithdrawalState | undefined> {
  const row = await trx.selectFrom('withdrawals').select('state').where('id', '=', id).forUpdate().executeTakeFirst();
  return row?.state;
}

/** The hash shown while the transfer is in progress (the attempt most likely to be, or that was, mined). */
export async function showTxHash(trx: Db, id: string, txHash: string): Promise<void> {
  await trx
    .updateTable('withdrawals')
    .set({ tx_hash: txHash })
    .where('id', '=', id)
    .where('state', '=', 'transfer_in_progress')
    .execute();
}
